# kata: kaiming-init
import math

import torch

GAINS = {
    "linear": lambda a: 1.0,
    "relu": lambda a: math.sqrt(2.0),
    "leaky_relu": lambda a: math.sqrt(2.0 / (1.0 + a)),
    "tanh": lambda a: 5.0 / 3.0,
}


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.ndim < 2:
        raise ValueError(f"expected a weight of 2+ dims, got {tuple(weight.shape)}")
    if nonlinearity not in GAINS:
        raise ValueError(f"unknown nonlinearity {nonlinearity}")
    receptive = math.prod(weight.shape[2:])
    if mode == "fan_in":
        fan = weight.shape[1] * receptive
    elif mode == "fan_out":
        fan = weight.shape[0] * receptive
    else:
        raise ValueError(f"unknown mode {mode}")
    std = GAINS[nonlinearity](a) / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "normal":
            weight.normal_(0.0, std, generator=generator)
        elif distribution == "uniform":
            weight.uniform_(-math.sqrt(3.0) * std, math.sqrt(3.0) * std, generator=generator)
        else:
            raise ValueError(f"unknown distribution {distribution}")
    return weight
