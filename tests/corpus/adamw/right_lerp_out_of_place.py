# kata: adamw
# why: out-of-place torch.lerp and torch.addcdiv, the bias corrections with math.pow
import math

import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    m = torch.lerp(exp_avg, grad, 1 - beta1)
    v = torch.addcmul(exp_avg_sq * beta2, grad, grad, value=1 - beta2)
    c1 = 1 - math.pow(beta1, step)
    c2 = 1 - math.pow(beta2, step)
    denom = v.sqrt().div(math.sqrt(c2)).add(eps)
    new_param = torch.addcdiv(param * (1 - lr * weight_decay), m, denom, value=-lr / c1)
    return new_param, m, v
