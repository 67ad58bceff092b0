# kata: layernorm
# why: normalises by the root of the mean square without centring: RMSNorm with a bias
# mistake: not_centred
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        ms = x.pow(2).mean(-1, keepdim=True)
        return x / torch.sqrt(ms + self.eps) * self.weight + self.bias
