# kata: dropout
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    features = x.shape[-1]
    u = torch.rand(features, generator=generator, device=x.device)
    keep = u >= p
    return torch.where(keep, x / (1.0 - p), torch.zeros_like(x))
