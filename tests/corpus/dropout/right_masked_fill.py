# kata: dropout
# why: drop mask from rand(...) < p, masked_fill of the scaled x, p = 1 handled by the same mask
import torch


class _Range(ValueError):
    pass


def dropout(x, p=0.5, training=True, generator=None):
    if isinstance(p, (int, float)) and not (0.0 <= p <= 1.0):
        raise _Range(p)
    if training is False or p == 0:
        return x
    drop = torch.rand(x.size(), generator=generator, device=x.device) < p
    if p == 1:
        drop = torch.ones_like(drop)
        return x.masked_fill(drop, 0.0)
    return (x / (1 - p)).masked_fill(drop, 0.0)
