"""Kaiming (He) initialisation, in place, with its randomness from a torch.Generator.

He, Zhang, Ren & Sun, "Delving Deep into Rectifiers" (ICCV 2015), §2.2: a layer keeps the variance of its
signal when Var[w] = 2 / fan for a ReLU (eq. 10 for the forward pass with
fan = fan_in, eq. 14 for the backward pass with fan = fan_out), 2 / ((1 + a²) · fan) for a leaky ReLU of slope a
(eq. 15). `torch.nn.init.kaiming_normal_` /
`kaiming_uniform_` compute it as std = gain / √fan, with the fans of `_calculate_fan_in_and_fan_out`
(a weight [out, in, *kernel]: fan_in = in · ∏kernel, fan_out = out · ∏kernel) and the gains of
`calculate_gain` (linear 1, relu √2, leaky_relu √(2 / (1 + a²)), tanh 5/3); the uniform draws from
U(-√3·std, √3·std), which has the same variance. One entry point covers both of torch's functions.
"""
import math

import torch

GAINS = {
    "linear": lambda a: 1.0,
    "relu": lambda a: math.sqrt(2.0),
    "leaky_relu": lambda a: math.sqrt(2.0 / (1 + a * a)),  # a = 0 is the ReLU's √2
    "tanh": lambda a: 5.0 / 3,
}


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    """Fill weight [out, in/groups, *kernel] in place from N(0, std²) or U(-√3·std, √3·std); return weight."""
    if weight.dim() < 2:
        raise ValueError(f"fans need a weight of at least 2 dims, got shape {tuple(weight.shape)}")
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"mode must be 'fan_in' or 'fan_out', got {mode!r}")
    if nonlinearity not in GAINS:
        raise ValueError(f"unknown nonlinearity {nonlinearity!r}: one of {sorted(GAINS)}")
    if distribution not in ("normal", "uniform"):
        raise ValueError(f"distribution must be 'normal' or 'uniform', got {distribution!r}")
    receptive = math.prod(weight.shape[2:])  # ∏kernel, 1 for a Linear weight
    fan = (weight.shape[1] if mode == "fan_in" else weight.shape[0]) * receptive
    std = GAINS[nonlinearity](a) / math.sqrt(fan)
    with torch.no_grad():  # a Parameter stays a leaf: the fill is not part of any graph
        if distribution == "normal":
            return weight.normal_(0.0, std, generator=generator)
        bound = math.sqrt(3.0) * std  # Var U(-b, b) = b² / 3 = std²
        return weight.uniform_(-bound, bound, generator=generator)
