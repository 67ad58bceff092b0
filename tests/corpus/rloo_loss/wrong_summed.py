# kata: rloo-loss
# why: the per-completion losses summed, not averaged over N
# mistake: sum_not_mean
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    r = rewards.view(-1, k)
    adv = torch.zeros_like(r) if k == 1 else r - (r.sum(1, keepdim=True) - r) / (k - 1)
    adv = adv.reshape(-1)
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    return -(adv.to(log_probs.dtype) * (log_probs * m).sum(-1)).sum(), adv
