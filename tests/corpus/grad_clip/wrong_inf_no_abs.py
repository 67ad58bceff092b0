# kata: grad-clip
# why: the inf norm as g.max(): a negative entry of the largest magnitude is missed
# mistake: inf_norm_without_abs
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    if norm_type == float("inf"):
        total = max(g.max() for g in grads)
    else:
        total = torch.norm(torch.stack([torch.norm(g) for g in grads]))
    clip = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for g in grads:
        g.mul_(clip)
    return total
