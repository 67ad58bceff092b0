# kata: dropout
# why: a new generator seeded with generator.initial_seed() on each call: every call draws the same mask
# mistake: reseeded_copy
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("p must be in [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    local = None
    if generator is not None:
        local = torch.Generator(x.device)
        local.manual_seed(generator.initial_seed())
    u = torch.rand(x.shape, generator=local, device=x.device)
    return torch.where(u >= p, x / (1 - p), torch.zeros_like(x))
