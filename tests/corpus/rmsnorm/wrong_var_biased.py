# kata: rmsnorm
# why: torch.var(unbiased=False): the centred variance, not the mean of x squared; x itself not centred
# mistake: variance_not_mean_square
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        v = torch.var(x, dim=-1, keepdim=True, unbiased=False)
        normed = x * torch.rsqrt(v + self.eps)
        return normed * self.weight
