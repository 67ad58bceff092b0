# kata: adamw
import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    b1, b2 = betas
    p, g = param.double(), grad.double()
    m = b1 * exp_avg.double() + (1 - b1) * g
    v = b2 * exp_avg_sq.double() + (1 - b2) * g ** 2
    m_hat = m / (1 - b1 ** step)
    v_hat = v / (1 - b2 ** step)
    p = p - lr * weight_decay * p
    p = p - lr * m_hat / (torch.sqrt(v_hat) + eps)
    dtype = param.dtype
    return p.to(dtype), m.to(dtype), v.to(dtype)
