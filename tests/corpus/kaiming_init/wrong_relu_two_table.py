# kata: kaiming-init
# why: a gain table with relu = 2.0, the variance factor, instead of sqrt(2)
# mistake: relu_gain_2
import math

import torch

TABLE = {"linear": 1.0, "relu": 2.0, "tanh": 5.0 / 3}


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError(weight.shape)
    r = math.prod(weight.shape[2:])
    fan = weight.shape[1] * r if mode == "fan_in" else weight.shape[0] * r if mode == "fan_out" else None
    if fan is None:
        raise ValueError(mode)
    gain = math.sqrt(2 / (1 + a ** 2)) if nonlinearity == "leaky_relu" else TABLE[nonlinearity]
    std = gain / fan ** 0.5
    with torch.no_grad():
        if distribution == "normal":
            weight.normal_(0, std, generator=generator)
        elif distribution == "uniform":
            weight.uniform_(-std * 3 ** 0.5, std * 3 ** 0.5, generator=generator)
        else:
            raise ValueError(distribution)
    return weight
