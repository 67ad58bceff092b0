# kata: dropout
# why: a float32 mask cast to x's dtype before the multiply; scale kept as a Python float
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
    if not training or p == 0:
        return x
    scale = 1.0 / (1.0 - p) if p < 1 else 0.0
    mask = (torch.rand_like(x, dtype=torch.float32, generator=generator) < (1.0 - p)).float()
    return x * mask.to(dtype=x.dtype) * scale
