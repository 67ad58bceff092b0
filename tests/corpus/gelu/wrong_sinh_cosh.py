# kata: gelu
# why: tanh written as sinh/cosh from exp: inf/inf = NaN once |u| passes exp's range
# mistake: tanh_by_exp
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "none":
        return x * (1 + torch.erf(x / math.sqrt(2))) / 2
    if approximate == "tanh":
        u = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
        ep, en = torch.exp(u), torch.exp(-u)
        return x * (1 + (ep - en) / (ep + en)) / 2
    raise ValueError(approximate)
