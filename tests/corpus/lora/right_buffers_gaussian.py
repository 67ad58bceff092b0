# kata: lora
# why: the frozen weight and bias as buffers, A from the paper's Gaussian, the update as matmuls with .T
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        base = nn.Linear(in_features, out_features, bias=bias)
        self.register_buffer("weight", base.weight.detach().clone())
        if bias:
            self.register_buffer("bias", base.bias.detach().clone())
        else:
            self.bias = None
        self.lora_A = nn.Parameter(torch.randn(r, in_features) / r)
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        self.scaling = alpha / r

    def forward(self, x):
        out = x @ self.weight.T
        if self.bias is not None:
            out = out + self.bias
        return out + (x @ self.lora_A.T @ self.lora_B.T) * self.scaling
