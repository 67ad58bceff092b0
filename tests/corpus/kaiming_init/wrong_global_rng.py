# kata: kaiming-init
# why: torch.randn / torch.rand without generator=: every draw comes from the global RNG
# mistake: generator_ignored
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("2 dims")
    rf = math.prod(weight.shape[2:])
    if mode == "fan_in":
        fan = weight.shape[1] * rf
    elif mode == "fan_out":
        fan = weight.shape[0] * rf
    else:
        raise ValueError(mode)
    if nonlinearity == "leaky_relu":
        gain = math.sqrt(2 / (1 + a ** 2))
    elif nonlinearity in ("relu", "linear", "tanh"):
        gain = {"relu": math.sqrt(2), "linear": 1.0, "tanh": 5 / 3}[nonlinearity]
    else:
        raise ValueError(nonlinearity)
    std = gain / math.sqrt(fan)
    if distribution == "normal":
        x = torch.randn(weight.shape, device=weight.device) * std
    elif distribution == "uniform":
        x = (torch.rand(weight.shape, device=weight.device) * 2 - 1) * math.sqrt(3) * std
    else:
        raise ValueError(distribution)
    with torch.no_grad():
        weight.copy_(x)
    return weight
