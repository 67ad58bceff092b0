# kata: layernorm
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape, eps=1e-5):
        super().__init__()
        self.normalized_shape = normalized_shape
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        h = x.to(torch.promote_types(x.dtype, torch.float32))
        mean = torch.zeros_like(h[..., 0])
        m2 = torch.zeros_like(h[..., 0])
        for k in range(h.shape[-1]):
            delta = h[..., k] - mean
            mean = mean + delta / (k + 1)
            m2 = m2 + delta * (h[..., k] - mean)
        var = m2 / h.shape[-1]
        y = (h - mean.unsqueeze(-1)) / torch.sqrt(var.unsqueeze(-1) + self.eps)
        return (self.weight.to(h.dtype) * y + self.bias.to(h.dtype)).to(x.dtype)
