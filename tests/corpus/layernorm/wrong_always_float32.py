# kata: layernorm
# why: casts every input to float32, float64 too: float64 accuracy is lost and 1e20 squared overflows
# mistake: none
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        h = x.float()
        var, mean = torch.var_mean(h, -1, keepdim=True, correction=0)
        return ((h - mean) / torch.sqrt(var + self.eps) * self.weight.float() + self.bias.float()).to(x.dtype)
