# kata: layernorm
# why: eps stored but never used: a constant row divides 0 by 0
# mistake: eps_missing
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        mean = h.mean(-1, keepdim=True)
        std = (h - mean).pow(2).mean(-1, keepdim=True).sqrt()
        return (self.weight * (h - mean) / std + self.bias).to(x.dtype)
