# kata: dropout
# why: F.dropout's own kernel: bernoulli_(1 - p) into a buffer of x's dtype, then x * mask * (1 / (1 - p))
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError("p out of range")
    if not training:
        return x
    if p == 1:
        return torch.zeros_like(x)
    noise = torch.empty_like(x).bernoulli_(1 - p, generator=generator)
    return x * noise * (1.0 / (1 - p))
