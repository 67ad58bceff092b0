# kata: gelu
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "tanh":
        k = math.sqrt(2.0 / math.pi)
        cdf = 0.5 * (1.0 + torch.tanh(k * (x + 0.044715 * x * x * x)))
    else:
        cdf = 0.5 * (1.0 + torch.erf(x * (1.0 / math.sqrt(2.0))))
    return x * cdf
