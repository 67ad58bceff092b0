# kata: rloo-loss
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    scores = rewards.view(-1, k)                                  # (P, k)
    others = (scores.sum(dim=1, keepdim=True) - scores) / (k - 1)  # mean of the other samples
    advantages = (scores - others).reshape(-1)

    m = torch.ones_like(log_probs) if mask is None else mask.to(log_probs.dtype)
    seq_logp = torch.einsum("nt,nt->n", log_probs, m)
    loss = -(advantages.to(log_probs.dtype) * seq_logp).mean()
    return loss, advantages
