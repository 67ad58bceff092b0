# kata: grad-clip
# why: loops over parameters twice without making a list: from model.parameters() the second loop sees nothing
# mistake: generator_read_twice
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    per_param = []
    for p in parameters:
        if p.grad is not None:
            per_param.append(p.grad.abs().max() if norm_type == math.inf else p.grad.norm())
    if not per_param:
        return torch.tensor(0.0)
    stacked = torch.stack(per_param)
    total = stacked.max() if norm_type == math.inf else stacked.norm()
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for p in parameters:
        if p.grad is not None:
            p.grad.mul_(coef)
    return total
