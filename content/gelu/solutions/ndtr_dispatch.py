# kata: gelu
import math

import torch


def _exact_cdf(x):
    return torch.special.ndtr(x)


def _tanh_cdf(x):
    inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3))
    return 0.5 * (1.0 + torch.tanh(inner))


CDFS = {"none": _exact_cdf, "tanh": _tanh_cdf}


def gelu(x, approximate="none"):
    cdf = CDFS[approximate]
    if x.dtype in (torch.float16, torch.bfloat16):
        return (x.float() * cdf(x.float())).to(x.dtype)
    return x * cdf(x)
