# kata: kaiming-init
# why: treats tanh as linear near 0 and gives it gain 1 (torch uses 5/3)
# mistake: tanh_gain_1
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("dims")
    fan_in = weight.size(1) * weight[0][0].numel()
    fan_out = weight.size(0) * weight[0][0].numel()
    if nonlinearity in ("linear", "tanh"):
        gain = 1.0
    elif nonlinearity == "relu":
        gain = math.sqrt(2.0)
    elif nonlinearity == "leaky_relu":
        gain = math.sqrt(2.0 / (1 + a ** 2))
    else:
        raise ValueError(nonlinearity)
    if mode == "fan_in":
        std = gain / math.sqrt(fan_in)
    elif mode == "fan_out":
        std = gain / math.sqrt(fan_out)
    else:
        raise ValueError(mode)
    with torch.no_grad():
        if distribution == "normal":
            weight.normal_(0, std, generator=generator)
        elif distribution == "uniform":
            weight.uniform_(-math.sqrt(3) * std, math.sqrt(3) * std, generator=generator)
        else:
            raise ValueError(distribution)
    return weight
