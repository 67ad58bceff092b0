# kata: kaiming-init
# why: computes var = gain^2 / fan as in the paper and hands it to normal_ as the std
# mistake: variance_as_std
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("need a 2-D or larger weight")
    spatial = 1
    for d in weight.shape[2:]:
        spatial *= d
    fan = (weight.shape[1] if mode == "fan_in" else weight.shape[0]) * spatial
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    if nonlinearity == "leaky_relu":
        gain_sq = 2.0 / (1 + a * a)
    elif nonlinearity == "relu":
        gain_sq = 2.0
    elif nonlinearity == "tanh":
        gain_sq = (5.0 / 3) ** 2
    elif nonlinearity == "linear":
        gain_sq = 1.0
    else:
        raise ValueError(nonlinearity)
    var = gain_sq / fan
    with torch.no_grad():
        if distribution == "normal":
            weight.normal_(0.0, var, generator=generator)
        elif distribution == "uniform":
            weight.uniform_(-math.sqrt(3) * var, math.sqrt(3) * var, generator=generator)
        else:
            raise ValueError(distribution)
    return weight
