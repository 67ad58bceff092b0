# kata: rloo-loss
# why: the leave-one-out advantage further divided by the group's std, as GRPO does
# mistake: std_normalised
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    r = rewards.view(-1, k)
    if k > 1:
        adv = r - (r.sum(1, keepdim=True) - r) / (k - 1)
        adv = adv / (r.std(1, keepdim=True) + 1e-8)
    else:
        adv = torch.zeros_like(r)
    adv = adv.reshape(-1)
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    return -(adv.to(log_probs.dtype) * (log_probs * m).sum(-1)).mean(), adv
