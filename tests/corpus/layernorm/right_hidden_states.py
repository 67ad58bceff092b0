# kata: layernorm
# why: a library-style module: forward(self, hidden_states), the statistics in float32 for half inputs and cast back
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        h = hidden_states.to(torch.promote_types(input_dtype, torch.float32))
        mean = h.mean(-1, keepdim=True)
        variance = (h - mean).pow(2).mean(-1, keepdim=True)
        h = (h - mean) * torch.rsqrt(variance + self.variance_epsilon)
        return (self.weight.to(h.dtype) * h + self.bias.to(h.dtype)).to(input_dtype)
