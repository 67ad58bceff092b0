# kata: lora
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        linear = nn.Linear(in_features, out_features, bias=bias)
        linear.requires_grad_(False)
        self.weight = linear.weight
        self.bias = linear.bias
        self.lora_A = nn.Parameter(torch.empty(r, in_features).normal_(std=1 / math.sqrt(in_features)))
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        self.r, self.alpha = r, alpha

    def forward(self, x):
        merged = self.weight + (self.alpha / self.r) * (self.lora_B @ self.lora_A)
        return F.linear(x, merged, self.bias)
