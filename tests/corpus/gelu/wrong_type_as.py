# kata: gelu
# why: every input through float32 (.to(torch.float32)), back with type_as: float64 loses its precision
# mistake: float64_in_float32
import math

import torch


def gelu(x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(approximate)
    v = x.to(torch.float32)
    if approximate == "none":
        out = v * torch.special.ndtr(v)
    else:
        out = 0.5 * v * (1.0 + torch.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))
    return out.type_as(x)
