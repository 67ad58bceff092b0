# kata: adamw
# why: the moments used raw, as if step were large: no division by 1 - beta ** step
# mistake: no_bias_correction
import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    decayed = param.mul(1 - lr * weight_decay)
    m = exp_avg.mul(beta1).add(grad, alpha=1 - beta1)
    v = exp_avg_sq.mul(beta2).addcmul(grad, grad, value=1 - beta2)
    return decayed.addcdiv(m, v.sqrt().add(eps), value=-lr), m, v
