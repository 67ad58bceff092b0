# kata: grad-clip
# why: treats parameters as always iterable: a single tensor is iterated over (its rows, which have no .grad)
# mistake: single_tensor_not_wrapped
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    grads = [p.grad for p in list(parameters) if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]), norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for g in grads:
        g.mul_(coef)
    return total
