# kata: kaiming-init
# why: the fans and gains by hand, then weight.normal_ / weight.uniform_ in place under no_grad
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("need at least 2 dims")
    receptive = 1
    for size in weight.shape[2:]:
        receptive *= size
    if mode == "fan_in":
        fan = weight.shape[1] * receptive
    elif mode == "fan_out":
        fan = weight.shape[0] * receptive
    else:
        raise ValueError(mode)
    if nonlinearity == "linear":
        gain = 1.0
    elif nonlinearity == "relu":
        gain = math.sqrt(2.0)
    elif nonlinearity == "leaky_relu":
        gain = math.sqrt(2.0 / (1 + a ** 2))
    elif nonlinearity == "tanh":
        gain = 5.0 / 3
    else:
        raise ValueError(nonlinearity)
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "normal":
            weight.normal_(0, std, generator=generator)
        elif distribution == "uniform":
            bound = math.sqrt(3.0) * std
            weight.uniform_(-bound, bound, generator=generator)
        else:
            raise ValueError(distribution)
    return weight
