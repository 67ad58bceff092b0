# kata: dropout
# why: no p = 1 branch: the mask is all zeros and x * 0 / 0 is NaN
# mistake: nan_at_p_one
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if not 0.0 <= p <= 1.0:
        raise ValueError("p must be a probability")
    if not training:
        return x
    m = torch.bernoulli(torch.full_like(x, 1.0 - p), generator=generator)
    return m * x / (1.0 - p)
