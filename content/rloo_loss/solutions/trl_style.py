# kata: rloo-loss
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    grouped = rewards.double().view(-1, k)
    if k > 1:
        baseline = (grouped.sum(1, keepdim=True) - grouped) / (k - 1)
        advantages = (grouped - baseline).flatten()
    else:
        advantages = torch.zeros_like(grouped).flatten()
    valid = torch.ones_like(log_probs, dtype=torch.bool) if mask is None else mask.bool()
    sequence_logps = torch.where(valid, log_probs.double(), 0.0).sum(-1)
    loss = -(advantages * sequence_logps).mean()
    return loss.to(log_probs.dtype), advantages.to(rewards.dtype)
