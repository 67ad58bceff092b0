# kata: dropout
# why: torch.rand_like without generator=: the mask comes from the global RNG
# mistake: generator_ignored
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("p out of range")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand_like(x, dtype=torch.float32) > p
    return x * keep / (1 - p)
