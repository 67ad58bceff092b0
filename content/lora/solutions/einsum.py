# kata: lora
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        bound = in_features ** -0.5
        self.weight = nn.Parameter((torch.rand(out_features, in_features) * 2 - 1) * bound, requires_grad=False)
        self.bias = nn.Parameter((torch.rand(out_features) * 2 - 1) * bound, requires_grad=False) if bias else None
        self.lora_A = nn.Parameter((torch.rand(r, in_features) * 2 - 1) * bound)
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        self.scaling = float(alpha) / float(r)

    def forward(self, x):
        y = torch.einsum("...i,oi->...o", x, self.weight)
        if self.bias is not None:
            y = y + self.bias
        low = torch.einsum("...i,ri->...r", x, self.lora_A) * self.scaling
        return y + torch.einsum("...r,or->...o", low, self.lora_B)
