# kata: gelu
# why: tanh(u) as expm1(2u) / (exp(2u) + 1) "for accuracy near 0": inf / inf = NaN once exp(2u) overflows
# mistake: tanh_by_exp
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "tanh":
        u = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
        t = torch.expm1(2 * u) / (torch.exp(2 * u) + 1)
        return 0.5 * x * (1 + t)
    if approximate == "none":
        return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
    raise ValueError(approximate)
