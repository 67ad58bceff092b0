# kata: dropout
# why: the uniforms are made without device=: on a GPU a CUDA generator refuses them, and the CPU mask cannot meet x
# mistake: rand_without_device
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if not (0 <= p <= 1):
        raise ValueError("invalid dropout probability")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(tuple(x.shape), generator=generator).lt(1 - p)
    return x.mul(keep).div(1 - p)
