# kata: kaiming-init
# why: draws one filter [1, in, *kernel] and broadcasts it over every output channel
# mistake: one_row_repeated
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("dims")
    k = math.prod(weight.shape[2:])
    fan = weight.shape[1] * k if mode == "fan_in" else weight.shape[0] * k
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    gain = {"linear": 1.0, "relu": math.sqrt(2), "leaky_relu": math.sqrt(2 / (1 + a * a)), "tanh": 5 / 3}[nonlinearity]
    std = gain / math.sqrt(fan)
    one = (1, *weight.shape[1:])
    if distribution == "normal":
        filt = torch.randn(one, generator=generator, device=weight.device) * std
    elif distribution == "uniform":
        filt = (torch.rand(one, generator=generator, device=weight.device) * 2 - 1) * math.sqrt(3) * std
    else:
        raise ValueError(distribution)
    with torch.no_grad():
        weight[:] = filt
    return weight
