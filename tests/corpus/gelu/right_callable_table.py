# kata: gelu
# why: a table of lambdas written in native precision (half stays half), an assert for unknown names
import math

import torch

_C = math.sqrt(2.0 / math.pi)
_FORMS = {
    "none": lambda t: t * 0.5 * (1.0 + torch.erf(t * 0.7071067811865476)),
    "tanh": lambda t: t * 0.5 * (1.0 + torch.tanh(_C * (t + 0.044715 * t * t * t))),
}


def gelu(x, approximate="none"):
    assert approximate in _FORMS, f"bad approximate: {approximate}"
    return _FORMS[approximate](x)
