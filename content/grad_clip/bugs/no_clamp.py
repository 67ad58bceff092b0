# kata: grad-clip
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    per_tensor = torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads])
    total = torch.linalg.vector_norm(per_tensor, norm_type)
    scale = max_norm / (total + 1e-6)
    for g in grads:
        g.mul_(scale)
    return total
