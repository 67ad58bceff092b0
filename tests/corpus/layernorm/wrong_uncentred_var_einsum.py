# kata: layernorm
# why: the second moment by einsum, not centred: E[x²] where Var[x] belongs
# mistake: uncentred_variance
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        d = x.shape[-1]
        second = torch.einsum("...i,...i->...", x, x)[..., None] / d
        centred = x - x.sum(-1, keepdim=True) / d
        return self.weight * centred * (second + self.eps).rsqrt() + self.bias
