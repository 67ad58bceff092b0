# kata: gelu
# why: both forms written as x · (1 + f(…)) with no 0.5, through a shared helper
# mistake: half_missing
import math

import torch


def _gate(x, approximate):
    if approximate == "none":
        return 1 + torch.erf(x / math.sqrt(2))
    if approximate == "tanh":
        return 1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))
    raise ValueError(approximate)


def gelu(x, approximate="none"):
    return x * _gate(x, approximate)
