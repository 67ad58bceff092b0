# kata: rope
# why: torch.arange without device=: on a GPU the positions live on the CPU and the outer product fails
# mistake: none
import torch


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, start_pos=0, base=10000.0):
    L, D = x.shape[-2:]
    inv_freq = 1.0 / (base ** (torch.arange(0, D, 2).float() / D))
    t = torch.arange(start_pos, start_pos + L).float()
    emb = torch.cat([torch.outer(t, inv_freq)] * 2, dim=-1)
    return x * emb.cos().to(x.dtype) + rotate_half(x) * emb.sin().to(x.dtype)
