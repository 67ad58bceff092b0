# kata: layernorm
# why: x.var(unbiased=False) and x.mean, the weight and bias applied after the cast back (torch's LayerNorm order differs only by a rounding)
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        h = x.float() if x.element_size() < 4 else x
        normed = (h - h.mean(-1, keepdim=True)) / (h.var(-1, unbiased=False, keepdim=True) + self.eps).sqrt()
        return normed.to(x.dtype) * self.weight + self.bias
