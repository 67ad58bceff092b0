# kata: gelu
# why: x.detach() at the top, so the result is cut off from the graph
# mistake: detached
import math

import torch


def gelu(x, approximate="none"):
    x = x.detach()
    if approximate == "none":
        phi = 0.5 * (1 + torch.erf(x / math.sqrt(2)))
    elif approximate == "tanh":
        phi = 0.5 * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    else:
        raise ValueError(approximate)
    return x * phi
