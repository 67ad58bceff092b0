# kata: grad-clip
# why: sums the squares of every entry and forgets the square root
# mistake: squared_norm
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    parameters = [p for p in parameters if p.grad is not None]
    if len(parameters) == 0:
        return torch.tensor(0.0)
    if norm_type == math.inf:
        norm = torch.stack([p.grad.abs().max() for p in parameters]).max()
    else:
        norm = torch.stack([(p.grad * p.grad).sum() for p in parameters]).sum()
    coef = torch.clamp(max_norm / (norm + 1e-6), max=1.0)
    for p in parameters:
        p.grad.mul_(coef)
    return norm
