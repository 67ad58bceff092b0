# kata: grad-clip
# why: reads p.grad of every parameter: a frozen parameter (grad None) raises
# mistake: none_grads_not_skipped
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    parameters = list(parameters)
    if not parameters:
        return torch.tensor(0.0)
    norms = torch.stack([torch.linalg.vector_norm(p.grad, norm_type) for p in parameters])
    total = torch.linalg.vector_norm(norms, norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for p in parameters:
        p.grad.mul_(coef)
    return total
