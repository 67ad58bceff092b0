# kata: rope
# why: the rotation written out per half, with + where the first half needs x1·cos − x2·sin
# mistake: rotate_half_unnegated
import torch


def apply_rope(x, start_pos=0, base=10000.0):
    *_, L, D = x.shape
    half = D // 2
    idx = torch.arange(half, dtype=torch.float64, device=x.device)
    theta = base ** (-2.0 * idx / D)
    pos = torch.arange(L, dtype=torch.float64, device=x.device) + start_pos
    ang = torch.einsum("l,f->lf", pos, theta)
    cos, sin = ang.cos().to(x.dtype), ang.sin().to(x.dtype)
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos + x2 * sin, x2 * cos + x1 * sin], dim=-1)
