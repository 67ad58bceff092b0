# kata: rmsnorm
# why: the mean square over the last two dims: one RMS per sequence, not per token
# mistake: stats_over_last_two_dims
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        ms = x.pow(2).mean(dim=(-2, -1), keepdim=True)
        return x * torch.rsqrt(ms + self.eps) * self.weight
