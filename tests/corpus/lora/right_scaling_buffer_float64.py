# kata: lora
# why: scaling kept as a float64 tensor buffer (persistent): buffers are the module's own, and a float64 scalar keeps alpha / r exact in the float64 cases
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        base = nn.Linear(in_features, out_features, bias=bias)
        self.weight = nn.Parameter(base.weight.detach().clone(), requires_grad=False)
        self.bias = nn.Parameter(base.bias.detach().clone(), requires_grad=False) if bias else None
        self.lora_A = nn.Parameter(torch.empty(r, in_features))
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.register_buffer("scaling", torch.tensor(alpha / r, dtype=torch.float64))

    def forward(self, x):
        update = (x @ self.lora_A.T) @ self.lora_B.T
        return F.linear(x, self.weight, self.bias) + update * self.scaling.to(x.dtype)
