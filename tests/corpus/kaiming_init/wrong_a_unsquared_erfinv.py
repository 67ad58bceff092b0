# kata: kaiming-init
# why: inverse-CDF draws (erfinv) and a leaky gain of sqrt(2 / (1 + a)): a is not squared
# mistake: a_not_squared
import math

import torch


@torch.no_grad()
def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2 or mode not in {"fan_in", "fan_out"} or distribution not in {"normal", "uniform"}:
        raise ValueError("unsupported arguments")
    dims = list(weight.shape)
    size = math.prod(dims[2:])
    fan = dims[1] * size if mode == "fan_in" else dims[0] * size
    gains = {"linear": 1.0, "relu": math.sqrt(2.0), "leaky_relu": math.sqrt(2.0 / (1.0 + a)), "tanh": 5.0 / 3.0}
    if nonlinearity not in gains:
        raise ValueError(nonlinearity)
    std = gains[nonlinearity] / math.sqrt(fan)
    u = torch.rand(weight.shape, generator=generator, device=weight.device).clamp(1e-7, 1 - 1e-7)
    if distribution == "normal":
        weight.copy_(std * math.sqrt(2.0) * torch.erfinv(2 * u - 1))
    else:
        weight.copy_(std * math.sqrt(3.0) * (2 * u - 1))
    return weight
