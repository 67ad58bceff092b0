# kata: rmsnorm
# why: LLaMA's convention: normalise in float32, cast back, then multiply by the weight in x's dtype; float64 stays float64
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        return self._norm(h).type_as(x) * self.weight
