# kata: rmsnorm
# why: x / rsqrt(ms + eps): the reciprocal taken twice, so x times the RMS
# mistake: multiplied_by_rms
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        inv = torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + self.eps)
        return self.weight * (x / inv)
