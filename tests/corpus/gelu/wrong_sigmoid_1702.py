# kata: gelu
# why: "the fast GELU": x · sigmoid(1.702 x) used for approximate="tanh"
# mistake: sigmoid_approximation
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "tanh":
        return x * torch.sigmoid(1.702 * x)
    elif approximate == "none":
        return x * 0.5 * (1 + torch.erf(x / math.sqrt(2)))
    raise ValueError(approximate)
