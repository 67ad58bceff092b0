# kata: rmsnorm
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        orig_dtype = x.dtype
        if orig_dtype in (torch.float16, torch.bfloat16):
            x = x.float()
        d = x.shape[-1]
        x = x - x.mean(-1, keepdim=True)
        ms = torch.einsum("...d,...d->...", x, x).unsqueeze(-1) / d
        out = x * torch.rsqrt(ms + self.eps) * self.weight
        return out.to(orig_dtype)
