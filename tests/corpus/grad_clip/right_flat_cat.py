# kata: grad-clip
# why: flattens every gradient into one vector with torch.cat and takes its norm; the coefficient by torch.minimum
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    with_grad = [p for p in parameters if p.grad is not None]
    if not with_grad:
        return torch.tensor(0.)
    flat = torch.cat([p.grad.reshape(-1) for p in with_grad])
    total = flat.abs().max() if norm_type == float("inf") else flat.norm(2)
    coef = torch.minimum(max_norm / (total + 1e-6), torch.ones_like(total))
    for p in with_grad:
        p.grad.mul_(coef)
    return total
