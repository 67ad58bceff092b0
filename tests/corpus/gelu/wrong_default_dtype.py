# kata: gelu
# why: casts to torch.get_default_dtype() (float32) for "stability" and back: float64 input loses its digits
# mistake: float64_in_float32
import math

import torch


def gelu(x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(approximate)
    orig = x.dtype
    x = x.to(torch.get_default_dtype())
    if approximate == "tanh":
        y = 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    else:
        y = 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
    return y.to(orig)
