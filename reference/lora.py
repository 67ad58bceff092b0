"""A linear layer with a low-rank adapter: the base weight frozen, only A and B trained.

Hu et al., "LoRA: Low-Rank Adaptation of Large Language Models" (2021), eq. 3 and sec. 4.1:
h = W0·x + ΔW·x = W0·x + (α/r)·B·A·x, with A ∈ R^{r×in} random, B ∈ R^{out×r} zero at the start
(so ΔW = 0 and training starts from the pretrained layer), and W0 frozen. As peft's LoRA `Linear`
with lora_dropout = 0: A gets nn.Linear's kaiming_uniform_(a=√5) init, the scaling is alpha / r.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        assert r >= 1, f"rank r must be at least 1, got {r}"
        base = nn.Linear(in_features, out_features, bias=bias)  # the "pretrained" layer's init
        self.weight = nn.Parameter(base.weight.detach().clone(), requires_grad=False)  # (out, in), frozen
        self.bias = nn.Parameter(base.bias.detach().clone(), requires_grad=False) if bias else None  # (out,)
        self.lora_A = nn.Parameter(torch.empty(r, in_features))  # (r, in)
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))  # (out, r): zero, so ΔW = B·A = 0 at the start
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.scaling = alpha / r  # a Python float, not a buffer: it never enters the state_dict

    def forward(self, x):
        """x (..., in) -> (..., out)."""
        base = F.linear(x, self.weight, self.bias)  # (..., out)
        update = (x @ self.lora_A.T) @ self.lora_B.T  # (..., r) -> (..., out); never builds the (out, in) product
        return base + self.scaling * update
