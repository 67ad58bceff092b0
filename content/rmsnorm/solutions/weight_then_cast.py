# kata: rmsnorm
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        dtype = torch.promote_types(x.dtype, torch.float32)
        h = x.to(dtype)
        rms = torch.sqrt(torch.mean(h * h, dim=-1, keepdim=True) + self.eps)
        return (h / rms * self.weight.to(dtype)).to(x.dtype)
