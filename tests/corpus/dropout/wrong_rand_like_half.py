# kata: dropout
# why: torch.rand_like(x) draws the uniforms in x's dtype: bfloat16 and float16 cannot resolve 1 - p = 0.001
# mistake: half_uniforms
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p = {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    u = torch.rand_like(x, generator=generator)
    return x * (u > p) / (1 - p)
