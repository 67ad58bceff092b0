# kata: rmsnorm
# why: divides by the root of x.var() (unbiased, centred) instead of the mean square
# mistake: variance_not_mean_square
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return self.weight * x / torch.sqrt(x.var(-1, keepdim=True) + self.eps)
