# kata: grad-clip
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    norm_type = float(norm_type)
    norms = [torch.linalg.vector_norm(p.grad, norm_type) for p in parameters if p.grad is not None]
    if not norms:
        return torch.tensor(0.0)
    total_norm = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    clip_coef = torch.clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for p in parameters:
        if p.grad is not None:
            p.grad.mul_(clip_coef)
    return total_norm
