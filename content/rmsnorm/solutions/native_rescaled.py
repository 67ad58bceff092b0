# kata: rmsnorm
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        scale = x.abs().amax(-1, keepdim=True).detach()  # y does not depend on it: no gradient path needed
        scale = torch.where(scale > 0, scale, torch.ones_like(scale))
        s = x / scale
        ms = s.pow(2).mean(-1, keepdim=True)
        eps = (self.eps / scale.to(torch.promote_types(x.dtype, torch.float32)).pow(2)).to(x.dtype)
        return s * torch.rsqrt(ms + eps) * self.weight
