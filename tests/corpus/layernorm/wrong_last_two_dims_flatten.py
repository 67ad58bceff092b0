# kata: layernorm
# why: flattens the last two dims before the statistics
# mistake: stats_over_last_two_dims
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        flat = x.flatten(start_dim=-2)
        mu = flat.mean(-1)[..., None, None]
        sigma2 = ((flat - flat.mean(-1, keepdim=True)) ** 2).mean(-1)[..., None, None]
        return self.weight * (x - mu) / (sigma2 + self.eps).sqrt() + self.bias
