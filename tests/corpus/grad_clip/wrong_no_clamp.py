# kata: grad-clip
# why: rescales the gradients to max_norm every time: small gradients are scaled up
# mistake: no_clamp
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    params = [parameters] if torch.is_tensor(parameters) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    if math.isinf(norm_type):
        total_norm = max(g.abs().max() for g in grads)
    else:
        total_norm = torch.sqrt(sum(g.pow(2).sum() for g in grads))
    ratio = max_norm / (total_norm + 1e-6)
    for g in grads:
        g.mul_(ratio)
    return total_norm
