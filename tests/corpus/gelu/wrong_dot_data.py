# kata: gelu
# why: works on x.data to "avoid autograd overhead": the result has no graph back to x
# mistake: detached
import math

import torch


def gelu(x, approximate="none"):
    v = x.data
    if approximate == "tanh":
        return 0.5 * v * (1 + torch.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))
    if approximate == "none":
        return 0.5 * v * (1 + torch.erf(v / math.sqrt(2)))
    raise ValueError(approximate)
