# kata: dropout
# why: the mask and the multiply sit inside torch.no_grad(): the output is cut off the graph
# mistake: under_no_grad
import torch


def dropout(x, p=0.5, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("dropout p must be in [0, 1]")
    if not training or p == 0:
        return x
    with torch.no_grad():
        keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
        out = x * keep
        if p < 1:
            out = out / (1 - p)
    return out
