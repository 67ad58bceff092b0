# kata: lora
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        raise NotImplementedError("write LoRALinear.__init__")

    def forward(self, x):
        raise NotImplementedError("write LoRALinear.forward")
