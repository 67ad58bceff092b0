# kata: gelu
# why: dict.get with the exact form as the fallback: "fast" or "erf" silently compute erf
# mistake: unknown_accepted
import math

import torch


def _exact(x):
    return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))


def _approx(x):
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu(x, approximate="none"):
    return {"tanh": _approx}.get(approximate, _exact)(x)
