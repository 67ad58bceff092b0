# kata: adamw
import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    params, exp_avgs, exp_avg_sqs = [param.clone()], [exp_avg.clone()], [exp_avg_sq.clone()]
    torch._foreach_mul_(params, 1 - lr * weight_decay)
    torch._foreach_lerp_(exp_avgs, [grad], 1 - beta1)
    torch._foreach_mul_(exp_avg_sqs, beta2)
    torch._foreach_addcmul_(exp_avg_sqs, [grad], [grad], 1 - beta2)
    bc1 = 1 - beta1 ** step
    bc2_sqrt = (1 - beta2 ** step) ** 0.5
    denom = torch._foreach_sqrt(exp_avg_sqs)
    torch._foreach_div_(denom, bc2_sqrt)
    torch._foreach_add_(denom, eps)
    torch._foreach_addcdiv_(params, exp_avgs, denom, -lr / bc1)
    return params[0], exp_avgs[0], exp_avg_sqs[0]
