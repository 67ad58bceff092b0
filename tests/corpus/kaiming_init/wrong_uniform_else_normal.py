# kata: kaiming-init
# why: `if distribution == "uniform": ... else: normal`: any misspelt distribution silently gets the normal
# mistake: unknown_distribution_accepted
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("need 2 dims")
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    size = math.prod(weight.shape[2:])
    fan = (weight.shape[1] if mode == "fan_in" else weight.shape[0]) * size
    if nonlinearity == "linear":
        gain = 1.0
    elif nonlinearity == "relu":
        gain = math.sqrt(2.0)
    elif nonlinearity == "leaky_relu":
        gain = math.sqrt(2.0 / (1 + a * a))
    elif nonlinearity == "tanh":
        gain = 5.0 / 3.0
    else:
        raise ValueError(nonlinearity)
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "uniform":
            weight.uniform_(-math.sqrt(3.0) * std, math.sqrt(3.0) * std, generator=generator)
        else:
            weight.normal_(0.0, std, generator=generator)
    return weight
