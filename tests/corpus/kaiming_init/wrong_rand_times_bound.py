# kata: kaiming-init
# why: uniform values as torch.rand(...) * bound: U(0, bound), never negative (the 2u - 1 is missing)
# mistake: uniform_from_zero
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("weight.dim() < 2")
    prod = 1
    for s in weight.shape[2:]:
        prod *= s
    if mode == "fan_in":
        fan = weight.shape[1] * prod
    elif mode == "fan_out":
        fan = weight.shape[0] * prod
    else:
        raise ValueError(mode)
    gain = {"linear": 1.0, "relu": math.sqrt(2.0), "tanh": 5 / 3}.get(nonlinearity)
    if nonlinearity == "leaky_relu":
        gain = math.sqrt(2.0 / (1 + a * a))
    if gain is None:
        raise ValueError(nonlinearity)
    std = gain / math.sqrt(fan)
    if distribution == "normal":
        values = std * torch.randn(weight.shape, generator=generator, device=weight.device)
    elif distribution == "uniform":
        bound = math.sqrt(3.0) * std
        values = torch.rand(weight.shape, generator=generator, device=weight.device) * bound
    else:
        raise ValueError(distribution)
    with torch.no_grad():
        weight.copy_(values)
    return weight
