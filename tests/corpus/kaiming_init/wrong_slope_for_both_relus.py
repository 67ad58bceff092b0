# kata: kaiming-init
# why: one formula for both rectifiers, sqrt(2 / (1 + a^2)) with a applied to relu as well
# mistake: a_applied_to_relu
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if len(weight.shape) < 2:
        raise ValueError("weight must have 2 or more dims")
    receptive = weight[0, 0].numel()
    fan_in, fan_out = weight.shape[1] * receptive, weight.shape[0] * receptive
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    fan = fan_in if mode == "fan_in" else fan_out
    if nonlinearity in ("relu", "leaky_relu"):
        gain = math.sqrt(2.0 / (1 + a * a))
    elif nonlinearity == "tanh":
        gain = 5.0 / 3
    elif nonlinearity == "linear":
        gain = 1.0
    else:
        raise ValueError(nonlinearity)
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "normal":
            weight.normal_(0.0, std, generator=generator)
        elif distribution == "uniform":
            b = math.sqrt(3.0) * std
            weight.uniform_(-b, b, generator=generator)
        else:
            raise ValueError(distribution)
    return weight
