# kata: gelu
# why: the tanh scale is 2/π instead of √(2/π), in a dispatch dict of small functions
# mistake: two_over_pi_without_root
import math

import torch

K = 2.0 / math.pi


def _erf_form(x):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def _tanh_form(x):
    return 0.5 * x * (1.0 + torch.tanh(K * (x + 0.044715 * x * x * x)))


def gelu(x, approximate="none"):
    try:
        fn = {"none": _erf_form, "tanh": _tanh_form}[approximate]
    except KeyError:
        raise ValueError(f"approximate must be none or tanh, not {approximate}") from None
    return fn(x)
