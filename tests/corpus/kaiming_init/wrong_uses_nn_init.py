# kata: kaiming-init
# why: calls torch.nn.init's own fan and gain helpers (banned: they are the exercise)
# mistake: none
import math

import torch
from torch.nn.init import _calculate_fan_in_and_fan_out, calculate_gain


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(weight)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)
    with torch.no_grad():
        if distribution == "normal":
            return weight.normal_(0, std, generator=generator)
        return weight.uniform_(-math.sqrt(3) * std, math.sqrt(3) * std, generator=generator)
