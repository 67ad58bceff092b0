"""One step of AdamW: Adam's update with weight decay decoupled from the gradient.

Loshchilov & Hutter, "Decoupled Weight Decay Regularization" (ICLR 2019), Algorithm 2 (AdamW),
in the form `torch.optim.AdamW` computes it: the decay multiplies the parameter by (1 - lr·λ) before
the Adam step, never enters the moments, and eps is added after the square root of the
bias-corrected second moment (Kingma & Ba 2015, Algorithm 1).
"""
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    """Tensors of one shape; step = this update's number, 1 on the first. Returns (param, exp_avg, exp_avg_sq)."""
    assert isinstance(step, int) and step >= 1, f"step counts updates from 1, got {step!r}"
    beta1, beta2 = betas
    m = beta1 * exp_avg + (1 - beta1) * grad  # first moment
    v = beta2 * exp_avg_sq + (1 - beta2) * grad * grad  # second moment
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    decayed = param * (1 - lr * weight_decay)  # decoupled: the gradient never sees the decay
    denom = v.sqrt() / math.sqrt(bias_correction2) + eps  # sqrt(v̂) + eps
    new_param = decayed - (lr / bias_correction1) * m / denom  # lr · m̂ / (sqrt(v̂) + eps)
    return new_param, m, v
