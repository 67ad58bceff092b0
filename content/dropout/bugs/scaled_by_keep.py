# kata: dropout
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    keep_prob = 1.0 - p
    keep = torch.rand(x.shape, generator=generator, device=x.device) < keep_prob
    return x * keep * keep_prob
