# kata: adamw
# why: calls the functional AdamW from torch.optim (banned)
# (run in process it computes like a zero-based step: torch's functional adamw counts the step up first)
# mistake: zero_based_step
import torch
from torch.optim.adamw import adamw


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
               weight_decay=0.01):
    p, m, v = param.clone(), exp_avg.clone(), exp_avg_sq.clone()
    adamw([p], [grad], [m], [v], [], [torch.tensor(float(step))], amsgrad=False, beta1=betas[0], beta2=betas[1],
          lr=lr, weight_decay=weight_decay, eps=eps, maximize=False)
    return p, m, v
