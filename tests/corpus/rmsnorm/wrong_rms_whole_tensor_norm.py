# kata: rmsnorm
# why: x.norm() / sqrt(numel): the RMS of the whole tensor, one number
# mistake: rms_over_all_elements
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        scale = torch.rsqrt(x.pow(2).sum() / x.numel() + self.eps)
        return self.weight * (x * scale)
