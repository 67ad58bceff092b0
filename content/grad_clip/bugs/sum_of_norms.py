# kata: grad-clip
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    if norm_type == math.inf:
        total = torch.stack([g.abs().max() for g in grads]).max()
    else:
        total = torch.stack([g.norm() for g in grads]).sum()
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for g in grads:
        g.mul_(coef)
    return total
