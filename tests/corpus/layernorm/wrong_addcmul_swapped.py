# kata: layernorm
# why: torch.addcmul(weight, x_hat, bias): the affine's arguments swapped
# mistake: weight_bias_swapped
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        var, mean = torch.var_mean(x, dim=-1, unbiased=False, keepdim=True)
        x_hat = (x - mean) * torch.rsqrt(var + self.eps)
        return torch.addcmul(self.weight, x_hat, self.bias)
