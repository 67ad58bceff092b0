# kata: rloo-loss
# why: each completion's log-prob averaged over its tokens (a length-normalised REINFORCE)
# mistake: token_mean_log_prob
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    r = rewards.view(-1, k)
    adv = torch.zeros_like(r) if k == 1 else r - (r.sum(1, keepdim=True) - r) / (k - 1)
    adv = adv.reshape(-1)
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    seq = (log_probs * m).sum(-1) / m.sum(-1).clamp(min=1)
    return -(adv.to(log_probs.dtype) * seq).mean(), adv
