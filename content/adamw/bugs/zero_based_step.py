# kata: adamw
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    b1, b2 = betas
    t = step + 1

    m = torch.lerp(exp_avg, grad, 1 - b1)
    v = b2 * exp_avg_sq + (1 - b2) * torch.square(grad)

    m_hat = m / (1 - b1 ** t)
    v_hat = v / (1 - b2 ** t)

    new_param = param - lr * weight_decay * param
    new_param = new_param - lr * m_hat / (torch.sqrt(v_hat) + eps)
    return new_param, m, v
