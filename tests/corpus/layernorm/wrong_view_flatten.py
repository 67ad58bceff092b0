# kata: layernorm
# why: flattens with x.view(-1, D), which raises on a non-contiguous input
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
        D = x.shape[-1]
        h = x.view(-1, D)
        h = h.float() if x.dtype in (torch.float16, torch.bfloat16) else h
        var, mean = torch.var_mean(h, -1, keepdim=True, correction=0)
        return ((h - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias).to(x.dtype).view(x.shape)
