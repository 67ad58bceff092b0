# kata: rloo-loss
# why: the leave-one-out advantage, then divided by the group's std (+1e-4) as GRPO does
# mistake: std_normalised
import torch


def rloo_loss(log_probs, rewards, k, mask=None):
    g = rewards.detach().view(-1, k)
    if k == 1:
        A = torch.zeros_like(g)
    else:
        A = g - (g.sum(1, keepdim=True) - g) / (k - 1)
        A = A / (g.std(1, keepdim=True) + 1e-4)
    A = A.reshape(-1)
    lp = log_probs if mask is None else torch.where(mask.bool(), log_probs, torch.zeros_like(log_probs))
    return -(A.to(log_probs.dtype) * lp.sum(1)).mean(), A
