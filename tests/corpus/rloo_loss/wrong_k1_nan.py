# kata: rloo-loss
# why: no special case for k = 1: (sum - r) / (k - 1) divides by zero
# mistake: k1_divides_by_zero
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    r = rewards.view(-1, k)
    baseline = (r.sum(dim=1, keepdim=True) - r) / (k - 1)
    adv = (r - baseline).reshape(-1)
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    return -(adv.to(log_probs.dtype) * (log_probs * m).sum(-1)).mean(), adv
