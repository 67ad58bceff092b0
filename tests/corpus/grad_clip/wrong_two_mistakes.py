# kata: grad-clip
# why: no eps and the clipped norm returned at once: no single known mistake explains it
# mistake: none
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in list(parameters) if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
    coef = torch.clamp(max_norm / total, max=1.0)
    for g in grads:
        g.mul_(coef)
    return total * coef
