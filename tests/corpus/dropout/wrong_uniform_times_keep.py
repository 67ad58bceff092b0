# kata: dropout
# why: the kept elements are multiplied by the keep probability instead of divided by it
# mistake: scaled_by_keep
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(p)
    if not training:
        return x
    keep_prob = 1.0 - p
    u = torch.empty(x.shape, device=x.device).uniform_(generator=generator)
    return torch.where(u < keep_prob, x * keep_prob, torch.zeros_like(x))
