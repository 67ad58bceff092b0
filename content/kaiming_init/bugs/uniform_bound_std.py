# kata: kaiming-init
import math

import torch


def _fan(shape, mode):
    receptive = 1
    for k in shape[2:]:
        receptive *= k
    if mode == "fan_in":
        return shape[1] * receptive
    if mode == "fan_out":
        return shape[0] * receptive
    raise ValueError(f"mode must be fan_in or fan_out, got {mode}")


def _gain(nonlinearity, a):
    table = {"linear": 1.0, "relu": math.sqrt(2.0), "tanh": 5.0 / 3}
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + a * a))
    if nonlinearity not in table:
        raise ValueError(f"no gain for {nonlinearity}")
    return table[nonlinearity]


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("kaiming init needs a weight with at least 2 dims")
    std = _gain(nonlinearity, a) / math.sqrt(_fan(weight.shape, mode))
    if distribution == "normal":
        draws = torch.randn(weight.shape, generator=generator, device=weight.device)
    elif distribution == "uniform":
        draws = 2 * torch.rand(weight.shape, generator=generator, device=weight.device) - 1
    else:
        raise ValueError(f"unknown distribution {distribution}")
    with torch.no_grad():
        weight.copy_(draws * std)
    return weight
