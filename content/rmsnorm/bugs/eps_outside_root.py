# kata: rmsnorm
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.dim = dim
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        # root mean square over the features
        rms = torch.sqrt(torch.mean(h * h, dim=-1, keepdim=True))
        y = h / (rms + self.eps)
        return (y * self.weight).to(x.dtype)
