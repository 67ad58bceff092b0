# kata: lora
# why: the low-rank update computed under torch.no_grad() (meant for the frozen base): the adapter never trains
# mistake: lora_path_detached
import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features), requires_grad=False)
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        self.bias = nn.Parameter(torch.zeros(out_features), requires_grad=False) if bias else None
        self.lora_A = nn.Parameter(torch.empty(r, in_features))
        self.lora_B = nn.Parameter(torch.empty(out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)
        self.scaling = alpha / r

    def forward(self, x):
        out = torch.einsum("...i,oi->...o", x, self.weight)
        if self.bias is not None:
            out = out + self.bias
        with torch.no_grad():
            update = torch.einsum("...r,or->...o", torch.einsum("...i,ri->...r", x, self.lora_A), self.lora_B)
        return out + self.scaling * update
