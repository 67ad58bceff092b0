# kata: grad-clip
# why: the textbook if-branch (Pascanu et al.) with torch's eps, the scale applied only when it is below 1
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    plist = [parameters] if isinstance(parameters, torch.Tensor) else [p for p in parameters]
    gs = [p.grad for p in plist if p.grad is not None]
    if len(gs) == 0:
        return torch.zeros(())
    if norm_type == 2:
        total_norm = torch.sqrt(sum((g.double() ** 2).sum() for g in gs)).to(gs[0].dtype)
    else:
        total_norm = torch.stack([g.abs().amax() for g in gs]).amax()
    scale = max_norm / (total_norm + 1e-6)
    if scale < 1:
        for g in gs:
            g.mul_(scale)
    return total_norm
