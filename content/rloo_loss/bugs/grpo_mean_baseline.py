# kata: rloo-loss
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    N = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    if k > 1:
        for start in range(0, N, k):
            group = rewards[start:start + k]
            advantages[start:start + k] = group - group.mean()

    valid = torch.ones_like(log_probs, dtype=torch.bool) if mask is None else mask.bool()
    seq_logp = torch.where(valid, log_probs, torch.zeros_like(log_probs)).sum(-1)
    return -(advantages.to(log_probs.dtype) * seq_logp).mean(), advantages
