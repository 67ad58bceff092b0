# kata: gelu
# why: x *= cdf to save memory: the caller's x is overwritten (and a leaf that requires grad raises)
# mistake: x_in_place
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "tanh":
        cdf = 0.5 * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
    elif approximate == "none":
        cdf = 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))
    else:
        raise ValueError(approximate)
    x *= cdf
    return x
