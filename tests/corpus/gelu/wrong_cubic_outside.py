# kata: gelu
# why: the √(2/π) multiplies x only; the cubic correction is added unscaled, built in separate steps
# mistake: cubic_outside_scale
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "none":
        return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))
    if approximate != "tanh":
        raise ValueError(f"approximate={approximate}")
    linear = math.sqrt(2.0 / math.pi) * x
    cubic = 0.044715 * torch.pow(x, 3)
    return x * 0.5 * (1.0 + torch.tanh(linear + cubic))
