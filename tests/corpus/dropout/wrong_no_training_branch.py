# kata: dropout
# why: the training flag is never read: eval drops elements too
# mistake: training_ignored
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if p == 1.0:
        return torch.zeros_like(x)
    rnd = torch.rand(x.shape, generator=generator, device=x.device)
    return torch.where(rnd < 1.0 - p, x / (1.0 - p), 0.0).to(x.dtype)
