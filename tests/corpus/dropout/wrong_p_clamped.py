# kata: dropout
# why: p is clamped into [0, 1] instead of refused, so p = 1.5 silently drops everything
# mistake: no_range_check
import torch


def dropout(x, p=0.5, training=True, generator=None):
    p = min(max(float(p), 0.0), 1.0)
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1.0 - p
    return x * keep / (1.0 - p)
