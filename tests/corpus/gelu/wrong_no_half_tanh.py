# kata: gelu
# why: the tanh branch forgets the 0.5 (the weight runs from 0 to 2); the exact branch is right
# mistake: half_missing
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "tanh":
        g = math.sqrt(2 / math.pi) * (x + 0.044715 * torch.pow(x, 3))
        return x * (1 + torch.tanh(g))
    if approximate == "none":
        return x * torch.special.ndtr(x)
    raise ValueError(approximate)
