# kata: lora
# why: flattens the leading dims to 2-D, works with addmm, reshapes back; frozen via requires_grad_(False)
import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        self.weight.requires_grad_(False)
        self.bias = nn.Parameter(torch.zeros(out_features)).requires_grad_(False) if bias else None
        self.lora_A = nn.Parameter(nn.init.kaiming_uniform_(torch.empty(r, in_features), a=math.sqrt(5)))
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        self.scaling = alpha / r

    def forward(self, x):
        lead = x.shape[:-1]
        flat = x.reshape(-1, self.in_features)  # (N, in)
        if self.bias is not None:
            y = torch.addmm(self.bias, flat, self.weight.t())
        else:
            y = flat @ self.weight.t()
        y = y + self.scaling * ((flat @ self.lora_A.t()) @ self.lora_B.t())
        return y.reshape(*lead, self.out_features)
