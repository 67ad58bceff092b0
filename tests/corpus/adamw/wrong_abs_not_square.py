# kata: adamw
# why: |g| instead of g squared in the second moment
# mistake: none
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    g = grad
    m = beta1 * exp_avg + (1 - beta1) * g
    v = beta2 * exp_avg_sq + (1 - beta2) * g.abs()
    m_hat, v_hat = m / (1 - beta1 ** step), v / (1 - beta2 ** step)
    new = param * (1 - lr * weight_decay) - lr * m_hat / (v_hat.sqrt() + eps)
    return new, m, v
