# kata: layernorm
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        compute_dtype = torch.promote_types(x.dtype, torch.float32)
        h = x.to(compute_dtype)

        # one pass over the row: first and second moments together
        mean = h.mean(-1, keepdim=True)
        mean_sq = (h * h).mean(-1, keepdim=True)
        var = mean_sq - mean * mean

        x_hat = (h - mean) / torch.sqrt(var + self.eps)
        out = x_hat * self.weight.to(compute_dtype) + self.bias.to(compute_dtype)
        return out.to(x.dtype)
