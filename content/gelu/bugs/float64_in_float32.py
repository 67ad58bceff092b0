# kata: gelu
import math

import torch


def gelu(x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(approximate)
    xf = x.float()
    if approximate == "tanh":
        y = 0.5 * xf * (1 + torch.tanh(math.sqrt(2 / math.pi) * (xf + 0.044715 * xf ** 3)))
    else:
        y = 0.5 * xf * (1 + torch.erf(xf / math.sqrt(2)))
    return y.to(x.dtype)
