# kata: kaiming-init
import math

import torch

GAIN = {
    "linear": lambda a: 1.0,
    "relu": lambda a: 2.0 ** 0.5,
    "leaky_relu": lambda a: (2.0 / (1 + a * a)) ** 0.5,
    "tanh": lambda a: 5 / 3,
}


@torch.no_grad()
def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    if weight.dim() < 2 or mode not in ("fan_in", "fan_out") or nonlinearity not in GAIN:
        raise ValueError(f"cannot initialise {tuple(weight.shape)} with mode={mode}, nonlinearity={nonlinearity}")
    if distribution not in ("normal", "uniform"):
        raise ValueError(f"distribution={distribution}")
    out_features, in_features, *kernel = weight.shape
    fan = (in_features if mode == "fan_in" else out_features) * math.prod(kernel)
    std = GAIN[nonlinearity](a) / math.sqrt(fan)
    u = torch.rand(weight.shape, generator=generator, device=weight.device, dtype=torch.float64)
    if distribution == "uniform":
        x = (2 * u - 1) * (3 ** 0.5)
    else:
        eps = 1e-12
        x = math.sqrt(2.0) * torch.erfinv((2 * u - 1).clamp(-1 + eps, 1 - eps))
    weight.copy_(x * std)
    return weight
