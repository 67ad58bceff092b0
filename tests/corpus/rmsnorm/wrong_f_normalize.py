# kata: rmsnorm
# why: F.normalize(x) * weight: the unit L2 norm, missing the factor sqrt(dim)
# mistake: none
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        import torch.nn.functional as F
        return F.normalize(x, dim=-1) * self.weight
