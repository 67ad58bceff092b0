# kata: dropout
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    keep_prob = torch.full_like(x, 1.0 - p)
    mask = torch.bernoulli(keep_prob, generator=generator)
    return x * mask / (1.0 - p)
