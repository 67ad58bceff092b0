# kata: gelu
import math

import torch


def _tanh(z):
    e = torch.exp(2 * z)
    return (e - 1) / (e + 1)


def gelu(x, approximate="none"):
    if approximate == "none":
        return x * 0.5 * (1 + torch.erf(x / math.sqrt(2)))
    elif approximate == "tanh":
        z = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
        return x * 0.5 * (1 + _tanh(z))
    else:
        raise ValueError("approximate must be 'none' or 'tanh'")
