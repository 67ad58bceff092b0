# kata: gelu
# why: two slips at once, 2/π without the root and the ½ missing in the tanh form: no single mistake explains it
# mistake: none
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "tanh":
        return x * (1 + torch.tanh(2 / math.pi * (x + 0.044715 * x ** 3)))
    if approximate == "none":
        return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
    raise ValueError(approximate)
