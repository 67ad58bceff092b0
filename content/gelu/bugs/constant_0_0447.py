# kata: gelu
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "none":
        return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))
    if approximate == "tanh":
        c = math.sqrt(2.0 / math.pi)
        return 0.5 * x * (1.0 + torch.tanh(c * (x + 0.0447 * x.pow(3))))
    raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
