# kata: grad-clip
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    if norm_type == math.inf:
        total_norm = torch.stack([g.abs().max() for g in grads]).max()
    else:
        total_norm = torch.stack([g.norm(2) for g in grads]).norm(2)
    clip_coef = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.mul_(clip_coef)
    total_norm = total_norm * clip_coef
    return total_norm
