# kata: rloo-loss
# why: averages the per-completion terms over the completions with at least one valid token, not over all N
# mistake: mean_over_nonempty
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    N, T = log_probs.shape
    r = rewards.detach().view(-1, k)
    adv = (r - (r.sum(1, keepdim=True) - r) / (k - 1)).view(-1) if k > 1 else torch.zeros_like(rewards)
    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    per = -(adv.to(log_probs.dtype) * (log_probs * m).sum(-1))
    nonempty = (m.sum(-1) > 0).to(log_probs.dtype)
    return (per * nonempty).sum() / nonempty.sum().clamp(min=1), adv
