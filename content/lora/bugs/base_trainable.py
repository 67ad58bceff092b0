# kata: lora
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        # start from an ordinary linear layer and take over its weights
        base = nn.Linear(in_features, out_features, bias=bias)
        self.weight = base.weight
        self.bias = base.bias

        self.lora_A = nn.Parameter(torch.empty(r, in_features))
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        nn.init.normal_(self.lora_A, std=1 / r)
        self.scaling = alpha / r

    def forward(self, x):
        y = F.linear(x, self.weight, self.bias)
        delta = F.linear(F.linear(x, self.lora_A), self.lora_B)
        return y + self.scaling * delta
