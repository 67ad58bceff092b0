# kata: grad-clip
# why: clips, then measures the gradients again and returns that norm (the clipped one)
# mistake: clipped_norm_returned
import torch


def _global_norm(grads, norm_type):
    if norm_type == float("inf"):
        return torch.stack([g.abs().max() for g in grads]).max()
    return torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    coef = torch.clamp(max_norm / (_global_norm(grads, norm_type) + 1e-6), max=1.0)
    for g in grads:
        g.mul_(coef)
    return _global_norm(grads, norm_type)
