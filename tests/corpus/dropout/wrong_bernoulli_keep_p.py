# kata: dropout
# why: the Bernoulli probabilities are p, the drop probability, so p of the elements survive
# mistake: keep_probability_p
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"p = {p} is not a probability")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    mask = torch.bernoulli(torch.full(x.shape, p, device=x.device), generator=generator)
    return x * mask.to(x.dtype) / (1.0 - p)
