# kata: adamw
# why: plain Adam: weight_decay is accepted and never used
# mistake: weight_decay_ignored
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    b1, b2 = betas
    m = b1 * exp_avg + (1 - b1) * grad
    v = b2 * exp_avg_sq + (1 - b2) * grad ** 2
    step_size = lr * math.sqrt(1 - b2 ** step) / (1 - b1 ** step)
    new = param - step_size * m / (v.sqrt() + eps * math.sqrt(1 - b2 ** step))
    return new, m, v
