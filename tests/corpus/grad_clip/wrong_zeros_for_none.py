# kata: grad-clip
# why: gives every parameter without a gradient a zero gradient first, so a frozen parameter gets a .grad
# mistake: none_grads_zero_filled
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    if not params:
        return torch.tensor(0.0)
    for p in params:
        if p.grad is None:
            p.grad = torch.zeros_like(p)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad, norm_type) for p in params]),
                                     norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for p in params:
        p.grad.mul_(coef)
    return total
