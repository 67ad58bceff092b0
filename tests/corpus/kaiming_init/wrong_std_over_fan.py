# kata: kaiming-init
# why: std = gain / fan: the square root of the fan is missing (values far too small)
# mistake: std_without_root
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("too few dims")
    k = math.prod(weight.shape[2:])
    fans = {"fan_in": weight.shape[1] * k, "fan_out": weight.shape[0] * k}
    if mode not in fans:
        raise ValueError(mode)
    gains = {"linear": 1.0, "relu": math.sqrt(2), "tanh": 5 / 3, "leaky_relu": math.sqrt(2 / (1 + a * a))}
    if nonlinearity not in gains:
        raise ValueError(nonlinearity)
    std = gains[nonlinearity] / fans[mode]
    if distribution == "normal":
        noise = torch.randn(weight.shape, device=weight.device, generator=generator)
    elif distribution == "uniform":
        noise = torch.empty(weight.shape, device=weight.device).uniform_(-math.sqrt(3), math.sqrt(3), generator=generator)
    else:
        raise ValueError(distribution)
    with torch.no_grad():
        weight.copy_(noise * std)
    return weight
