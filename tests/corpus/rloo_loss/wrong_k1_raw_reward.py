# kata: rloo-loss
# why: with k = 1 there are no other samples, so the baseline is taken as 0 and the raw reward is the advantage
# mistake: k1_raw_reward
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    r = rewards.detach().reshape(-1, k)
    if k == 1:
        baseline = torch.zeros_like(r)
    else:
        baseline = (r.sum(-1, keepdim=True) - r) / (k - 1)
    adv = (r - baseline).reshape(-1)
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    seq = (log_probs * m).sum(-1)
    return -(adv.to(log_probs.dtype) * seq).mean(), adv
