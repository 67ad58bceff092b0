# kata: layernorm
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    "Construct a layernorm module."

    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = eps

    def forward(self, x):
        h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        mean = h.mean(-1, keepdim=True)
        std = h.std(-1, keepdim=True)
        return (self.weight * (h - mean) / (std + self.eps) + self.bias).to(x.dtype)
