# kata: layernorm
# why: normalises over dim 0 (across the batch, BatchNorm-style) instead of over the features
# mistake: stats_over_first_dim
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
        mean = h.mean(0, keepdim=True)
        var = ((h - mean) ** 2).mean(0, keepdim=True)
        return ((h - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias).to(x.dtype)
