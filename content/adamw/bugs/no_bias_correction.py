# kata: adamw
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas

    # decoupled weight decay: shrink the weights directly
    decayed = param * (1 - lr * weight_decay)

    # exponential moving averages of the gradient and its square
    m = beta1 * exp_avg + (1 - beta1) * grad
    v = beta2 * exp_avg_sq + (1 - beta2) * grad ** 2

    new_param = decayed - lr * m / (torch.sqrt(v) + eps)
    return new_param, m, v
