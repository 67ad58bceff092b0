# kata: gelu
# why: the textbook formulas with an if / elif / raise, half inputs upcast to float32 and cast back
import math

import torch


def gelu(x, approximate="none"):
    h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
    if approximate == "none":
        y = 0.5 * h * (1.0 + torch.erf(h / math.sqrt(2.0)))
    elif approximate == "tanh":
        y = 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h ** 3)))
    else:
        raise ValueError(f"unknown approximate {approximate!r}")
    return y.to(x.dtype)
