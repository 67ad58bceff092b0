# kata: rmsnorm
# why: x / (||x|| / sqrt(d)) with no eps: the RMS by the vector norm, a zero row NaN
# mistake: eps_missing
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        d = x.shape[-1]
        rms = torch.linalg.vector_norm(x, dim=-1, keepdim=True) / d ** 0.5
        return self.weight * x / rms
