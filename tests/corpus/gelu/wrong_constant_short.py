# kata: gelu
# why: the cubic coefficient rounded to 0.0447 in a constants block; half inputs computed in float32
# mistake: constant_0_0447
import math

import torch

SQRT_2_OVER_PI = 0.7978845608028654
CUBIC = 0.0447
INV_SQRT2 = 0.7071067811865476


def gelu(x, approximate="none"):
    assert approximate in ("none", "tanh")
    work = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
    if approximate == "tanh":
        cdf = 0.5 * (1 + torch.tanh(SQRT_2_OVER_PI * (work + CUBIC * work.pow(3))))
    else:
        cdf = 0.5 * (1 + torch.erf(work * INV_SQRT2))
    return (work * cdf).to(x.dtype)
