# kata: dropout
# why: one noise vector along the last dimension, broadcast over every row: the rows share one mask
# mistake: one_mask_for_batch
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("p must be in [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    noise = torch.empty(x.size(-1), device=x.device).uniform_(generator=generator)
    return x * (noise > p) / (1 - p)
