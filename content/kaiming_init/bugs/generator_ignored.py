# kata: kaiming-init
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("weight needs at least 2 dims")
    out_channels, in_channels = weight.shape[:2]
    receptive = weight[0][0].numel()
    if mode == "fan_in":
        fan = in_channels * receptive
    elif mode == "fan_out":
        fan = out_channels * receptive
    else:
        raise ValueError(f"invalid mode {mode}")
    if nonlinearity == "leaky_relu":
        gain = math.sqrt(2.0 / (1 + a * a))
    elif nonlinearity == "relu":
        gain = math.sqrt(2.0)
    elif nonlinearity == "tanh":
        gain = 5.0 / 3
    elif nonlinearity == "linear":
        gain = 1.0
    else:
        raise ValueError(f"invalid nonlinearity {nonlinearity}")
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "normal":
            weight.normal_(0.0, std)
        elif distribution == "uniform":
            bound = math.sqrt(3.0) * std
            weight.uniform_(-bound, bound)
        else:
            raise ValueError(f"invalid distribution {distribution}")
    return weight
