# kata: kaiming-init
# why: returns fresh values scaled by std and never writes into weight (a functional style the contract rules out)
# mistake: not_in_place
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("2 dims at least")
    rf = math.prod(weight.shape[2:])
    fan = weight.shape[1] * rf if mode == "fan_in" else weight.shape[0] * rf
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    gain = {"linear": 1.0, "relu": math.sqrt(2), "leaky_relu": math.sqrt(2 / (1 + a * a)), "tanh": 5 / 3}[nonlinearity]
    std = gain / math.sqrt(fan)
    if distribution == "normal":
        return torch.randn(weight.shape, generator=generator, device=weight.device, dtype=weight.dtype) * std
    if distribution == "uniform":
        u = torch.rand(weight.shape, generator=generator, device=weight.device, dtype=weight.dtype)
        return (2 * u - 1) * math.sqrt(3) * std
    raise ValueError(distribution)
