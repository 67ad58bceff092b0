# kata: layernorm
import math

import torch
from torch import nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.D = normalized_shape
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(self.D))
        self.bias = nn.Parameter(torch.zeros(self.D))

    def forward(self, x):
        shape = x.shape
        rows = x.reshape(-1, self.D).to(torch.float64 if x.dtype == torch.float64 else torch.float32)
        mean = rows.sum(dim=1, keepdim=True) / self.D
        centred = rows - mean
        var = (centred * centred).sum(dim=1, keepdim=True) / self.D
        std = (var + self.eps).sqrt()
        out = centred / std * self.weight + self.bias
        return out.reshape(shape).to(x.dtype)
