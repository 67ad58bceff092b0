# kata: rmsnorm
# why: the mean square of every element at once (no dim)
# mistake: rms_over_all_elements
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        rms = torch.sqrt(torch.mean(x ** 2) + self.eps)
        return x / rms * self.weight
