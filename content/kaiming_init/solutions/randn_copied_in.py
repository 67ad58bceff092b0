# kata: kaiming-init
import math

import torch


def _fans(shape):
    receptive = 1
    for k in shape[2:]:
        receptive *= k
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity, a):
    if nonlinearity == "linear":
        return 1.0
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1.0 + a ** 2))
    if nonlinearity == "tanh":
        return 5.0 / 3.0
    raise ValueError(f"unsupported nonlinearity: {nonlinearity}")


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.ndim < 2:
        raise ValueError("kaiming init needs a weight with at least 2 dimensions")
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"mode must be fan_in or fan_out, not {mode}")
    fan_in, fan_out = _fans(weight.shape)
    std = _gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)
    if distribution == "normal":
        values = torch.randn(weight.shape, generator=generator, device=weight.device) * std
    elif distribution == "uniform":
        u = torch.rand(weight.shape, generator=generator, device=weight.device)
        values = (2.0 * u - 1.0) * math.sqrt(3.0) * std
    else:
        raise ValueError(f"unknown distribution: {distribution}")
    with torch.no_grad():
        weight.copy_(values)
    return weight
