# kata: kaiming-init
# why: a small helper class computes both fans but std always divides by the fan in, whatever mode says
# mistake: mode_ignored
import math

import torch


class Fans:
    def __init__(self, shape):
        if len(shape) < 2:
            raise ValueError("a weight needs 2 dims")
        k = math.prod(shape[2:])
        self.fan_in = shape[1] * k
        self.fan_out = shape[0] * k


def gain_for(nonlinearity, a):
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + a * a))
    return {"linear": 1.0, "relu": math.sqrt(2.0), "tanh": 5.0 / 3}[nonlinearity]


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    fans = Fans(tuple(weight.shape))
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(mode)
    std = gain_for(nonlinearity, a) / math.sqrt(fans.fan_in)
    with torch.no_grad():
        if distribution == "uniform":
            weight.uniform_(-std * 3 ** 0.5, std * 3 ** 0.5, generator=generator)
        elif distribution == "normal":
            weight.normal_(std=std, generator=generator)
        else:
            raise ValueError(distribution)
    return weight
