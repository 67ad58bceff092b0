# kata: kaiming-init
# why: draws made in float64 with torch.empty(..., dtype=float64).normal_ on weight's device, rounded once by copy_
import math

import torch


def _gain(nonlinearity, a):
    table = {"linear": 1.0, "relu": math.sqrt(2), "tanh": 5 / 3}
    if nonlinearity == "leaky_relu":
        return math.sqrt(2 / (1 + a ** 2))
    if nonlinearity not in table:
        raise ValueError(f"no gain for {nonlinearity!r}")
    return table[nonlinearity]


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.ndim < 2:
        raise ValueError("fans are undefined below 2 dims")
    fan_out, fan_in = weight.shape[0], weight.shape[1]
    for k in weight.shape[2:]:
        fan_out, fan_in = fan_out * k, fan_in * k
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    std = _gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)
    draws = torch.empty(weight.shape, dtype=torch.float64, device=weight.device)
    if distribution == "normal":
        draws.normal_(0.0, std, generator=generator)
    elif distribution == "uniform":
        draws.uniform_(-math.sqrt(3) * std, math.sqrt(3) * std, generator=generator)
    else:
        raise ValueError(distribution)
    with torch.no_grad():
        weight.copy_(draws)
    return weight
