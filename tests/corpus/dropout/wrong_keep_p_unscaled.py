# kata: dropout
# why: two mistakes at once: p of the elements kept, and no rescaling
# mistake: none
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("p")
    if not training:
        return x
    keep = torch.rand(x.shape, generator=generator, device=x.device) < p
    return x * keep
