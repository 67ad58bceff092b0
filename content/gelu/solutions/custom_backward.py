# kata: gelu
import math

import torch

SQRT_HALF = 1 / math.sqrt(2)
INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
K = math.sqrt(2 / math.pi)


class ExactGELU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 0.5 * x * (1 + torch.erf(x * SQRT_HALF))

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        cdf = 0.5 * (1 + torch.erf(x * SQRT_HALF))
        pdf = torch.exp(-0.5 * x * x) * INV_SQRT_2PI
        return grad_out * (cdf + x * pdf)


class TanhGELU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 0.5 * x * (1 + torch.tanh(K * (x + 0.044715 * x ** 3)))

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        t = torch.tanh(K * (x + 0.044715 * x ** 3))
        du = K * (1 + 3 * 0.044715 * x * x)
        return grad_out * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * du)


def gelu(x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(approximate)
    h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
    fn = TanhGELU if approximate == "tanh" else ExactGELU
    return fn.apply(h).to(x.dtype)
