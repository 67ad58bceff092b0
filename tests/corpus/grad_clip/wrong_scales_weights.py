# kata: grad-clip
# why: multiplies the parameters (p.data) by the coefficient instead of their gradients
# mistake: parameters_clipped
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    params = [p for p in params if p.grad is not None]
    if not params:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(p.grad, norm_type) for p in params]),
                                     norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for p in params:
            p.data.mul_(coef)
    return total
