# kata: kaiming-init
# why: reads the weight as [in, out, ...] (the Keras layout): size(0) taken as the fan in, size(1) as the fan out
# mistake: fans_swapped
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("at least 2 dims")
    rf = 1
    for s in weight.size()[2:]:
        rf *= s
    fan_in = weight.size(0) * rf
    fan_out = weight.size(1) * rf
    fan = {"fan_in": fan_in, "fan_out": fan_out}[mode]
    gain = {"linear": 1.0, "relu": math.sqrt(2), "leaky_relu": math.sqrt(2 / (1 + a * a)), "tanh": 5 / 3}[nonlinearity]
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        if distribution == "normal":
            return weight.normal_(0, std, generator=generator)
        if distribution == "uniform":
            return weight.uniform_(-math.sqrt(3) * std, math.sqrt(3) * std, generator=generator)
    raise ValueError(distribution)
