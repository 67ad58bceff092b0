# kata: grad-clip
# why: clips every parameter's gradient by that gradient's own norm (layer-wise clipping), not by the global norm
# mistake: per_parameter_clipping
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    norms = []
    for p in parameters:
        if p.grad is None:
            continue
        n = torch.linalg.vector_norm(p.grad, norm_type)
        norms.append(n)
        p.grad.mul_(torch.clamp(max_norm / (n + 1e-6), max=1.0))
    if not norms:
        return torch.tensor(0.0)
    return torch.linalg.vector_norm(torch.stack(norms), norm_type)
