# kata: rope
# why: a plain loop over the D/2 pairs with Python math for the frequencies, writing into a new tensor column by column
import math

import torch


def apply_rope(x, start_pos=0, base=10000.0):
    B, H, L, D = x.shape
    half = D // 2
    out = torch.empty_like(x)
    pos = torch.arange(start_pos, start_pos + L, device=x.device, dtype=torch.float32)
    for i in range(half):
        theta = pos * (base ** (-2.0 * i / D))
        c = torch.cos(theta).to(x.dtype)
        s = torch.sin(theta).to(x.dtype)
        a = x[:, :, :, i]
        b = x[:, :, :, i + half]
        out[:, :, :, i] = a * c - b * s
        out[:, :, :, i + half] = b * c + a * s
    return out
