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
        h = x.double() if x.dtype == torch.float64 else x.float()
        avg = torch.full((h.shape[-1],), 1.0 / h.shape[-1], dtype=h.dtype, device=h.device)
        mean = torch.einsum("...d,d->...", h, avg)[..., None]
        c = h - mean
        var = torch.einsum("...d,...d,d->...", c, c, avg)[..., None]
        return torch.addcmul(self.bias.to(h.dtype), c / torch.sqrt(var + self.eps), self.weight.to(h.dtype)).to(x.dtype)
