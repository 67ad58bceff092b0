# kata: kaiming-init
# why: a match statement that gives relu and leaky_relu the same sqrt(2): right only at a = 0
# mistake: leaky_gain_ignores_a
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("2+ dims")
    rf = math.prod(weight.shape[2:])
    match mode:
        case "fan_in":
            fan = weight.shape[1] * rf
        case "fan_out":
            fan = weight.shape[0] * rf
        case _:
            raise ValueError(mode)
    match nonlinearity:
        case "relu" | "leaky_relu":
            gain = math.sqrt(2.0)
        case "tanh":
            gain = 5.0 / 3.0
        case "linear":
            gain = 1.0
        case _:
            raise ValueError(nonlinearity)
    std = gain / math.sqrt(fan)
    match distribution:
        case "normal":
            x = torch.randn(weight.shape, generator=generator, device=weight.device) * std
        case "uniform":
            x = (torch.rand(weight.shape, generator=generator, device=weight.device) * 2 - 1) * math.sqrt(3) * std
        case _:
            raise ValueError(distribution)
    with torch.no_grad():
        weight.copy_(x)
    return weight
