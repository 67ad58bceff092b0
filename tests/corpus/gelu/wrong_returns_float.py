# kata: gelu
# why: half inputs upcast with promote_types and never cast back: a float16 x gives a float32 result
# mistake: half_returned_as_float32
import math

import torch


def gelu(x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(approximate)
    x = x.to(torch.promote_types(x.dtype, torch.float32))
    if approximate == "tanh":
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
