# kata: dropout
import torch


def _keep_mask(shape, keep_prob, device, generator=None):
    u = torch.rand(shape, device=device)
    return u < keep_prob


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"invalid dropout probability {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    mask = _keep_mask(x.shape, 1 - p, x.device, generator)
    return x * mask / (1 - p)
