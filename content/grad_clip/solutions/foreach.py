# kata: grad-clip
import math

import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    norm_type = float(norm_type)
    if norm_type == math.inf:
        norms = [g.abs().max() for g in grads]
        total_norm = torch.stack(norms).max()
    else:
        norms = torch._foreach_norm(grads, norm_type)
        total_norm = torch.linalg.vector_norm(torch.stack(norms), norm_type)
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    torch._foreach_mul_(grads, clip_coef_clamped)
    return total_norm
