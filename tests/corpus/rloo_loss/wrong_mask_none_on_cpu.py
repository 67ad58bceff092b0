# kata: rloo-loss
# why: mask=None becomes torch.ones(log_probs.shape), made without device=: right on the CPU, but on a GPU it meets log_probs on another device
# mistake: none
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    N, T = log_probs.shape
    r = rewards.detach().view(-1, k)
    if k > 1:
        advantages = (r - (r.sum(dim=1, keepdim=True) - r) / (k - 1)).reshape(N)
    else:
        advantages = torch.zeros_like(rewards)
    m = torch.ones(log_probs.shape) if mask is None else mask.to(log_probs.dtype)  # the CPU, whatever log_probs is on
    seq_log_prob = torch.where(m > 0, log_probs, torch.zeros_like(log_probs)).sum(dim=-1)
    return -(advantages.to(log_probs.dtype) * seq_log_prob).mean(), advantages
