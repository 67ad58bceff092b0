# kata: grad-clip
# why: adds up the per-tensor 2-norms instead of combining them as a 2-norm
# mistake: sum_of_norms
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    ps = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    gs = [p.grad for p in ps if p.grad is not None]
    if not gs:
        return torch.tensor(0.0)
    if norm_type == float("inf"):
        total = torch.stack([g.abs().max() for g in gs]).max()
    else:
        total = sum(torch.linalg.vector_norm(g) for g in gs)
    c = (max_norm / (total + 1e-6)).clamp(max=1.0)
    for g in gs:
        g.mul_(c)
    return total
