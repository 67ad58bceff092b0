# kata: gelu
# why: the tanh approximation for every call (as GPT-2's gelu_new), with an approximate check that only validates
# mistake: tanh_for_none
import math

import torch


def gelu(x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(approximate)
    u = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
    return x * torch.sigmoid(2 * u)
