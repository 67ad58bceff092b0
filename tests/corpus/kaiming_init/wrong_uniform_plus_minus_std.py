# kata: kaiming-init
# why: the uniform branch draws from U(-std, std), whose variance is std^2 / 3
# mistake: uniform_bound_std
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("fans need 2 dims")
    receptive = math.prod(weight.shape[2:])
    fan = {"fan_in": weight.shape[1], "fan_out": weight.shape[0]}[mode] * receptive
    gain = {"linear": 1, "relu": 2 ** 0.5, "leaky_relu": (2 / (1 + a * a)) ** 0.5, "tanh": 5 / 3}[nonlinearity]
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "uniform":
            return weight.uniform_(-std, std, generator=generator)
        if distribution == "normal":
            return weight.normal_(0.0, std, generator=generator)
    raise ValueError(f"unknown distribution {distribution}")
