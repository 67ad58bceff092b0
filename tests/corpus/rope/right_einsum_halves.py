# kata: rope
# why: einsum for the angle table and the two halves written out, each rotated by its own formula; reshape, never view
import math

import torch


def apply_rope(x, start_pos=0, base=10000.0):
    D = x.shape[-1]
    L = x.shape[-2]
    exponents = torch.arange(0, D // 2, device=x.device, dtype=torch.float64) * (2.0 / D)
    inv_freq = torch.exp(-math.log(base) * exponents)
    pos = torch.arange(L, device=x.device, dtype=torch.float64) + start_pos
    angles = torch.einsum("l,f->lf", pos, inv_freq)
    cos = angles.cos().to(x.dtype)
    sin = angles.sin().to(x.dtype)
    x1, x2 = x[..., : D // 2], x[..., D // 2 :]
    first = x1 * cos - x2 * sin
    second = x2 * cos + x1 * sin
    return torch.cat([first, second], dim=-1)
