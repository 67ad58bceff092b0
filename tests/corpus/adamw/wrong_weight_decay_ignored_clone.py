# kata: adamw
# why: torch.optim.Adam's update written out on clones (addcmul_, addcdiv_), no decoupled decay at all
# mistake: weight_decay_ignored
import torch


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    beta1, beta2 = betas
    p, m, v = param.clone(), exp_avg.clone(), exp_avg_sq.clone()
    m.mul_(beta1).add_(grad, alpha=1 - beta1)
    v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    denom = (v / bias_correction2).sqrt().add_(eps)
    p.addcdiv_(m, denom, value=-lr / bias_correction1)
    return p, m, v
