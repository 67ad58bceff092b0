# kata: adamw
# why: builds the moments from torch.zeros(param.shape) without device=: on a GPU they would sit on the CPU
# mistake: none
import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    m = torch.zeros(param.shape, dtype=param.dtype) + beta1 * exp_avg + (1 - beta1) * grad
    v = torch.zeros(param.shape, dtype=param.dtype) + beta2 * exp_avg_sq + (1 - beta2) * grad * grad
    m_hat, v_hat = m / (1 - beta1 ** step), v / (1 - beta2 ** step)
    return param * (1 - lr * weight_decay) - lr * m_hat / (v_hat.sqrt() + eps), m, v
