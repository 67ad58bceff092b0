# kata: layernorm
# why: names its parameters gamma and beta (the paper's letters): the state_dict does not load
# mistake: none
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(torch.ones(normalized_shape))
        self.beta = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, x):
        h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        var, mean = torch.var_mean(h, -1, keepdim=True, correction=0)
        return ((h - mean) * torch.rsqrt(var + self.eps) * self.gamma + self.beta).to(x.dtype)
