# kata: kaiming-init
# why: Box–Muller from two uniforms drawn with the generator on weight's device; torch's old fan code (tensor[0][0].numel())
import math

import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    assert weight.dim() >= 2, "fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
    assert mode in ["fan_in", "fan_out"], f"mode {mode} not supported"
    receptive_field_size = weight[0][0].numel()
    fan_in = weight.size(1) * receptive_field_size
    fan_out = weight.size(0) * receptive_field_size
    gains = {"linear": 1.0, "relu": math.sqrt(2.0), "tanh": 5.0 / 3, "leaky_relu": math.sqrt(2.0 / (1 + a * a))}
    assert nonlinearity in gains, f"unsupported nonlinearity {nonlinearity}"
    assert distribution in ("normal", "uniform"), distribution
    std = gains[nonlinearity] / math.sqrt(fan_in if mode == "fan_in" else fan_out)
    n = weight.numel()
    if distribution == "normal":
        u1 = torch.rand(n, generator=generator, device=weight.device, dtype=torch.float64)
        u2 = torch.rand(n, generator=generator, device=weight.device, dtype=torch.float64)
        r = torch.sqrt(-2.0 * torch.log1p(-u1))  # 1 - u1 is in (0, 1]: log never sees 0
        z = r * torch.cos(2 * math.pi * u2)
        values = z * std
    else:
        b = math.sqrt(3) * std
        values = torch.empty(n, device=weight.device, dtype=torch.float64).uniform_(-b, b, generator=generator)
    with torch.no_grad():
        weight.copy_(values.view(weight.shape))
    return weight
