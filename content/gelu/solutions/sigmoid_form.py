# kata: gelu
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "tanh":
        u = math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x)
        return x * torch.sigmoid(2 * u)
    if approximate == "none":
        return x * torch.erfc(-x / math.sqrt(2)) / 2
    raise ValueError(f"unknown approximate: {approximate}")
