# kata: rloo-loss
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    r = rewards.view(-1, k)
    if k == 1:
        adv = torch.zeros_like(rewards)
    else:
        adv = (k / (k - 1) * (r - r.mean(dim=1, keepdim=True))).reshape(-1)
    lp = log_probs if mask is None else log_probs.masked_fill(~mask.bool(), 0.0)
    loss = -(adv.to(log_probs.dtype) * lp.sum(dim=1)).mean()
    return loss, adv
