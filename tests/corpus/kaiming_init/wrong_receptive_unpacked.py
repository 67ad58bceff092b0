# kata: kaiming-init
# why: unpacks out, in = weight.shape[:2] and forgets the kernel: right for Linear, too large a std for convs
# mistake: receptive_field_ignored
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.ndim < 2:
        raise ValueError("weight must be at least 2-D")
    n_out, n_in = weight.shape[:2]
    if mode == "fan_in":
        fan = n_in
    elif mode == "fan_out":
        fan = n_out
    else:
        raise ValueError(mode)
    if nonlinearity == "relu":
        gain = math.sqrt(2)
    elif nonlinearity == "leaky_relu":
        gain = math.sqrt(2 / (1 + a ** 2))
    elif nonlinearity == "tanh":
        gain = 5 / 3
    elif nonlinearity == "linear":
        gain = 1
    else:
        raise ValueError(nonlinearity)
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "normal":
            weight.normal_(0, std, generator=generator)
        elif distribution == "uniform":
            weight.uniform_(-math.sqrt(3) * std, math.sqrt(3) * std, generator=generator)
        else:
            raise ValueError(distribution)
    return weight
