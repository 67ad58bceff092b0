# kata: rmsnorm
# why: x / (rms + eps): eps added outside the root
# mistake: eps_outside_root
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        rms = h.pow(2).mean(-1, keepdim=True).sqrt()
        return (h / (rms + self.eps) * self.weight).to(x.dtype)
