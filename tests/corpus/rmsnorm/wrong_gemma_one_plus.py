# kata: rmsnorm
# why: Gemma's (1 + weight) scaling, whose weight starts at zeros; here the weight starts at ones
# mistake: one_plus_weight
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        y = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return (y * (1.0 + self.weight.to(h.dtype))).to(x.dtype)
