# kata: dropout
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("dropout probability must be in [0, 1]")
    if not training:
        return x
    keep_prob = torch.full_like(x, 1 - p)
    mask = torch.bernoulli(keep_prob, generator=generator)
    return x * mask / (1 - p)
