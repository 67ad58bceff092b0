# kata: kaiming-init
# why: fans from weight.flatten(2): [out, in, receptive]; fills a flat view of weight (which shares its storage)
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2:
        raise ValueError("kaiming_init_ expects a weight of 2 or more dims")
    w3 = weight.flatten(2) if weight.dim() > 2 else weight.unsqueeze(-1)
    out_ch, in_ch, receptive = w3.shape
    if mode == "fan_in":
        fan = in_ch * receptive
    elif mode == "fan_out":
        fan = out_ch * receptive
    else:
        raise ValueError("bad mode")
    slope = a if nonlinearity == "leaky_relu" else 0.0
    if nonlinearity in ("relu", "leaky_relu"):
        gain = math.sqrt(2.0 / (1.0 + slope * slope))
    elif nonlinearity == "tanh":
        gain = 5.0 / 3.0
    elif nonlinearity == "linear":
        gain = 1.0
    else:
        raise ValueError("bad nonlinearity")
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        flat = weight.view(-1)
        if distribution == "uniform":
            limit = std * math.sqrt(3.0)
            flat.uniform_(-limit, limit, generator=generator)
        elif distribution == "normal":
            flat.normal_(0.0, std, generator=generator)
        else:
            raise ValueError("bad distribution")
    return weight
