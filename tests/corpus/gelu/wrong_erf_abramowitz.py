# kata: gelu
# why: erf by Abramowitz-Stegun 7.1.26, the coefficients in a list and Horner's rule in a loop (error 1.5e-7)
# mistake: polynomial_erf
import math

import torch

P = 0.3275911
A = [1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592]


def _erf(z):
    s = torch.sign(z)
    z = z.abs()
    t = 1.0 / (1.0 + P * z)
    acc = torch.zeros_like(z)
    for a in A:
        acc = (acc + a) * t
    return s * (1.0 - acc * torch.exp(-z * z))


def gelu(x, approximate="none"):
    if approximate == "tanh":
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    if approximate == "none":
        return 0.5 * x * (1 + _erf(x / math.sqrt(2)))
    raise ValueError(approximate)
