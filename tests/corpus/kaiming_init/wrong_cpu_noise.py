# kata: kaiming-init
# why: noise = torch.randn(weight.shape, generator=generator) on the CPU, then copied in: a CUDA generator is refused there
# mistake: randn_without_device
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("2-D at least")
    k = math.prod(weight.shape[2:])
    fan_in, fan_out = weight.shape[1] * k, weight.shape[0] * k
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    gains = {"linear": 1.0, "relu": math.sqrt(2.0), "leaky_relu": math.sqrt(2.0 / (1 + a * a)), "tanh": 5.0 / 3}
    std = gains[nonlinearity] / math.sqrt(fan_in if mode == "fan_in" else fan_out)
    if distribution == "normal":
        noise = torch.randn(weight.shape, generator=generator) * std
    elif distribution == "uniform":
        noise = (torch.rand(weight.shape, generator=generator) * 2 - 1) * (math.sqrt(3.0) * std)
    else:
        raise ValueError(distribution)
    with torch.no_grad():
        weight.copy_(noise)
    return weight
