# kata: lora
# why: A and B swapped at init: A zeros, B random
# mistake: zero_init_swapped
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
        nn.init.zeros_(self.lora_A)
        nn.init.normal_(self.lora_B, std=0.02)
        self.scaling = alpha / r

    def forward(self, x):
        return F.linear(x, self.weight, self.bias) + self.scaling * (x @ self.lora_A.T) @ self.lora_B.T
