# kata: rmsnorm
# why: subtracts the row mean, then the usual RMS scaling, written with einsum
# mistake: mean_subtracted
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        xc = x - x.mean(dim=-1, keepdim=True)
        ms = torch.einsum("...d,...d->...", xc, xc).unsqueeze(-1) / x.shape[-1]
        return xc * torch.rsqrt(ms + self.eps) * self.weight
