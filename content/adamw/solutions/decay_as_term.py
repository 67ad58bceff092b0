# kata: adamw
import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    m = beta1 * exp_avg + (1.0 - beta1) * grad
    v = beta2 * exp_avg_sq + (1.0 - beta2) * grad.square()
    m_hat = m / (1.0 - beta1 ** step)
    v_hat = v / (1.0 - beta2 ** step)
    new_param = param - lr * (m_hat / (v_hat.sqrt() + eps) + weight_decay * param)
    return new_param, m, v
