# kata: gelu
# why: the exact form's erf takes x * 0.5 (x/2) instead of x/√2; written as a small class with a __call__
# mistake: erf_of_half_x
import math

import torch


class _Gelu:
    def __init__(self, approximate):
        if approximate not in ("none", "tanh"):
            raise ValueError(approximate)
        self.approximate = approximate

    def __call__(self, x):
        if self.approximate == "tanh":
            return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
        return 0.5 * x * (1 + torch.erf(x * 0.5))


def gelu(x, approximate="none"):
    return _Gelu(approximate)(x)
