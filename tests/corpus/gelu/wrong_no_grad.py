# kata: gelu
# why: the body under torch.no_grad() ("it is only an activation"): no gradient reaches x
# mistake: detached
import math

import torch


@torch.no_grad()
def gelu(x, approximate="none"):
    if approximate == "tanh":
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    if approximate == "none":
        return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
    raise ValueError(approximate)
