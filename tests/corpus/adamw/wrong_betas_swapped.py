# kata: adamw
# why: beta2, beta1 = betas: the first moment decays with 0.999 and the second with 0.9
# mistake: betas_swapped
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta2, beta1 = betas
    param = param * (1 - lr * weight_decay)
    exp_avg = beta1 * exp_avg + (1 - beta1) * grad
    exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * grad * grad
    bias1 = 1 - beta1 ** step
    bias2 = 1 - beta2 ** step
    denom = (exp_avg_sq.sqrt() / math.sqrt(bias2)) + eps
    param = param - (lr / bias1) * exp_avg / denom
    return param, exp_avg, exp_avg_sq
