# kata: dropout
# why: the mask is a float32 buffer (torch.empty's default dtype): a half x times it comes out float32
# mistake: half_promoted
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0.0 or p > 1.0:
        raise ValueError("p")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    mask = torch.empty(x.shape, device=x.device).bernoulli_(1.0 - p, generator=generator)
    return x * mask * (1.0 / (1.0 - p))
