# kata: lora
# why: scaling registered as a buffer made from the Python float in float32: alpha / r rounded to float32, which the float64 cases see
# mistake: none
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
        self.lora_B = nn.Parameter(torch.empty(out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)
        self.register_buffer("scaling", torch.tensor(alpha / r))

    def forward(self, x):
        return F.linear(x, self.weight, self.bias) + self.scaling * (x @ self.lora_A.T) @ self.lora_B.T
