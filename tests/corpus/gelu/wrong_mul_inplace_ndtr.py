# kata: gelu
# why: returns x.mul_(gate): the gate is computed first, then x itself is overwritten
# mistake: x_in_place
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "none":
        gate = torch.special.ndtr(x)
    elif approximate == "tanh":
        gate = torch.sigmoid(2 * math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))
    else:
        raise ValueError(approximate)
    return x.mul_(gate)
