# kata: kaiming-init
# why: weight.normal_ / uniform_ straight on the tensor, outside torch.no_grad(): raises on a Parameter that requires grad
# mistake: no_no_grad
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("weight must be >= 2-D")
    receptive = 1
    for k in weight.shape[2:]:
        receptive *= k
    fan = {"fan_in": weight.shape[1] * receptive, "fan_out": weight.shape[0] * receptive}[mode]
    if nonlinearity == "leaky_relu":
        gain = math.sqrt(2.0 / (1.0 + a * a))
    else:
        gain = {"relu": math.sqrt(2.0), "linear": 1.0, "tanh": 5.0 / 3.0}[nonlinearity]
    std = gain / math.sqrt(fan)
    if distribution == "normal":
        return weight.normal_(0.0, std, generator=generator)
    if distribution == "uniform":
        return weight.uniform_(-math.sqrt(3.0) * std, math.sqrt(3.0) * std, generator=generator)
    raise ValueError(distribution)
