# kata: dropout
# why: inverted dropout in training, and at eval the output is multiplied by 1 - p as in the 2014 paper
# mistake: eval_scaled
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if not (0.0 <= p <= 1.0):
        raise ValueError("dropout probability must be in [0, 1]")
    keep = 1.0 - p
    if not training:
        return keep * x
    if keep == 0.0:
        return x * 0.0
    bits = torch.bernoulli(torch.full_like(x, keep), generator=generator)
    return bits * x / keep
