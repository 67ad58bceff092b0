# kata: rloo-loss
# why: mask=None becomes torch.tensor(1.0), a 0-dim CPU tensor: torch lets it meet tensors on a GPU, as a Python number would
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    N, T = log_probs.shape
    r = rewards.detach().view(-1, k)
    if k > 1:
        advantages = (r - (r.sum(dim=1, keepdim=True) - r) / (k - 1)).reshape(N)
    else:
        advantages = torch.zeros_like(rewards)
    m = torch.tensor(1.0) if mask is None else mask.to(log_probs.dtype)  # 0-dim: no device= needed
    seq_log_prob = (log_probs * m).sum(dim=-1)  # padding (finite) times 0 is 0
    return -(advantages.to(log_probs.dtype) * seq_log_prob).mean(), advantages
