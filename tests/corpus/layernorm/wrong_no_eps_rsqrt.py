# kata: layernorm
# why: rsqrt of the variance without eps
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
        h = x.to(torch.float32) if x.element_size() < 4 else x
        var, mean = torch.var_mean(h, -1, correction=0, keepdim=True)
        return (torch.rsqrt(var) * (h - mean) * self.weight + self.bias).type_as(x)
