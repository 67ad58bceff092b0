# kata: adamw
# why: updates the caller's param and moments in place (as torch.optim does) and returns them
# mistake: none
import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    param.mul_(1 - lr * weight_decay)
    exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    denom = (exp_avg_sq / (1 - beta2 ** step)).sqrt().add_(eps)
    param.addcdiv_(exp_avg, denom, value=-lr / (1 - beta1 ** step))
    return param, exp_avg, exp_avg_sq
