# kata: dropout
# why: eval returns zeros_like(x) instead of x (a mistake no variant models)
# mistake: none
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("p")
    if not training:
        return torch.zeros_like(x)
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep / (1 - p)
