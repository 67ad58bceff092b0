# kata: adamw
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas

    m = beta1 * exp_avg + (1 - beta1) * grad
    v = beta2 * exp_avg_sq + (1 - beta2) * grad * grad

    # fold both bias corrections into the step size (Kingma & Ba, end of section 2)
    alpha_t = lr * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
    update = alpha_t * m / (v.sqrt() + eps)

    new_param = param * (1 - lr * weight_decay) - update
    return new_param, m, v
