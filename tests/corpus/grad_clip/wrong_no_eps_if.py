# kata: grad-clip
# why: the textbook rule without torch's eps: if ||g|| > max_norm, g <- g * max_norm / ||g||
# mistake: no_eps
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in list(parameters) if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    if norm_type == float("inf"):
        total = torch.stack([g.abs().max() for g in grads]).max()
    else:
        total = torch.stack([g.norm() for g in grads]).norm()
    if total > max_norm:
        for g in grads:
            g.mul_(max_norm / total)
    return total
