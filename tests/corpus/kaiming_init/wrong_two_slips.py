# kata: kaiming-init
# why: two slips at once: the fans swapped and the uniform bound = std (no single known mistake explains it)
# mistake: none
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("dims")
    k = math.prod(weight.shape[2:])
    fan = (weight.shape[0] if mode == "fan_in" else weight.shape[1]) * k
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    gain = {"linear": 1.0, "relu": math.sqrt(2), "leaky_relu": math.sqrt(2 / (1 + a * a)), "tanh": 5 / 3}[nonlinearity]
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "normal":
            return weight.normal_(0, std, generator=generator)
        if distribution == "uniform":
            return weight.uniform_(-std, std, generator=generator)
    raise ValueError(distribution)
