# kata: gelu
import math

import torch


def gelu(x, approximate="none"):
    assert approximate in ("none", "tanh"), approximate
    if approximate == "tanh":
        inner = math.sqrt(2 / math.pi) * x + 0.044715 * x ** 3
        phi = 0.5 * (1 + torch.tanh(inner))
    else:
        phi = 0.5 * (1 + torch.erf(x / math.sqrt(2)))
    return x * phi
