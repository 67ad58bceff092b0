# kata: dropout
# why: bernoulli_() with no probability draws at 0.5 whatever p is
# mistake: bernoulli_half
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("p must be in [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.zeros_like(x).bernoulli_(generator=generator)
    return x * keep / (1 - p)
