# kata: rmsnorm
# why: flattens the last two dims for the statistic: one RMS per [L, D] slab
# mistake: stats_over_last_two_dims
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        flat = x.flatten(-2)
        rms = (flat.square().mean(-1) + self.eps).sqrt()
        return self.weight * x / rms[..., None, None]
