# kata: gelu
# why: CLIP's QuickGELU module (x * sigmoid(1.702 * x)) standing in for the tanh form, nn.Module style
# mistake: sigmoid_approximation
import math

import torch
from torch import nn


class QuickGELU(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.sigmoid(1.702 * x)


class ErfGELU(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


ACT = {"none": ErfGELU(), "tanh": QuickGELU()}


def gelu(x, approximate="none"):
    if approximate not in ACT:
        raise ValueError(f"approximate: {approximate}")
    return ACT[approximate](x)
