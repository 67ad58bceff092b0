# kata: adamw
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    p = param.clone()
    m = exp_avg.clone()
    v = exp_avg_sq.clone()

    p.mul_(1 - weight_decay)
    m.lerp_(grad, 1 - beta1)
    v.mul_(beta2).add_((1 - beta2) * grad * grad)

    m_hat = m / (1 - beta1 ** step)
    v_hat = v / (1 - beta2 ** step)
    p.sub_(lr * m_hat / (v_hat.sqrt() + eps))
    return p, m, v
