# kata: kaiming-init
# why: old-style `weight.data.normal_(...)`: .data is outside autograd, so a Parameter stays a leaf without no_grad
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    shape = tuple(weight.shape)
    if len(shape) < 2:
        raise ValueError(f"weight of shape {shape}")
    k = math.prod(shape[2:])
    fan = {"fan_in": shape[1] * k, "fan_out": shape[0] * k}[mode]
    if nonlinearity == "leaky_relu":
        gain = (2 / (1 + a * a)) ** 0.5
    else:
        gain = {"linear": 1.0, "relu": 2 ** 0.5, "tanh": 5 / 3}[nonlinearity]
    std = gain * fan ** -0.5
    if distribution == "normal":
        weight.data.normal_(mean=0.0, std=std, generator=generator)
    elif distribution == "uniform":
        weight.data.uniform_(-(3 ** 0.5) * std, (3 ** 0.5) * std, generator=generator)
    else:
        raise KeyError(distribution)
    return weight
