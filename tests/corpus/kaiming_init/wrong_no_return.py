# kata: kaiming-init
# why: fills weight in place correctly but never returns it
# mistake: returns_none
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("needs 2 dims")
    fan_in = weight.shape[1] * math.prod(weight.shape[2:])
    fan_out = weight.shape[0] * math.prod(weight.shape[2:])
    fan = fan_in if mode == "fan_in" else fan_out
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    gain = {"linear": 1.0, "relu": math.sqrt(2), "leaky_relu": math.sqrt(2 / (1 + a ** 2)), "tanh": 5 / 3}[nonlinearity]
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "normal":
            weight.normal_(0, std, generator=generator)
        elif distribution == "uniform":
            weight.uniform_(-(3 ** 0.5) * std, (3 ** 0.5) * std, generator=generator)
        else:
            raise ValueError(distribution)
