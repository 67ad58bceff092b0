# kata: dropout
# why: dropped elements zeroed with masked_fill, the survivors left at x (no 1 / (1 - p))
# mistake: no_rescaling
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError("bad p")
    if not training:
        return x
    dropped = torch.rand(x.size(), generator=generator, device=x.device) < p
    return x.masked_fill(dropped, 0)
