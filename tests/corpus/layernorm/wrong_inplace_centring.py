# kata: layernorm
# why: centres x in place (x -= mean), modifying the caller's tensor
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
        if x.dtype in (torch.float16, torch.bfloat16):
            x = x.float()
        mean = x.mean(-1, keepdim=True)
        x -= mean
        var = (x * x).mean(-1, keepdim=True)
        return x / torch.sqrt(var + self.eps) * self.weight + self.bias
