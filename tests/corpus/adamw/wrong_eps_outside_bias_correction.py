# kata: adamw
# why: the Adam paper's efficient form: eps added to the uncorrected root
# mistake: eps_outside_bias_correction
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    g = grad
    m = beta1 * exp_avg + (1 - beta1) * g
    v = beta2 * exp_avg_sq + (1 - beta2) * g * g
    step_size = lr * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
    new = param * (1 - lr * weight_decay) - step_size * m / (v.sqrt() + eps)
    return new, m, v
