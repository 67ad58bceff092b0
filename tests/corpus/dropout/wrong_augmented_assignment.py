# kata: dropout
# why: x *= mask and x /= (1 - p) write into the caller's tensor
# mistake: x_in_place
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(p)
    if not training or p == 0:
        return x
    mask = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    x *= mask
    if p < 1:
        x /= 1 - p
    return x
