# kata: rmsnorm
# why: the mean of squares as an einsum of x with itself, in float64 for float64 and float32 otherwise
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        h = x.double() if x.dtype == torch.float64 else x.float()
        ms = torch.einsum("...d,...d->...", h, h).unsqueeze(-1) / h.shape[-1]
        return (h * (ms + self.eps).rsqrt() * self.weight.to(h.dtype)).to(x.dtype)
