# kata: kaiming-init
import math

import torch


def compute_fans(weight):
    num_output_fmaps, num_input_fmaps = weight.shape[0], weight.shape[1]
    return num_input_fmaps, num_output_fmaps


def compute_gain(nonlinearity, a):
    if nonlinearity == "linear":
        return 1.0
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + a ** 2))
    if nonlinearity == "tanh":
        return 5.0 / 3
    raise ValueError(f"unsupported nonlinearity {nonlinearity}")


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("fan in and fan out need at least 2 dimensions")
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"mode {mode} not supported")
    fan_in, fan_out = compute_fans(weight)
    std = compute_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)
    with torch.no_grad():
        if distribution == "normal":
            return weight.normal_(0.0, std, generator=generator)
        if distribution == "uniform":
            bound = math.sqrt(3.0) * std
            return weight.uniform_(-bound, bound, generator=generator)
    raise ValueError(f"distribution {distribution} not supported")
