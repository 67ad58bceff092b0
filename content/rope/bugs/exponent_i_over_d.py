# kata: rope
import torch


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    L, D = x.shape[-2], x.shape[-1]
    half = D // 2

    # angles in float64 so large positions stay exact
    i = torch.arange(half, device=x.device, dtype=torch.float64)
    inv_freq = base ** (-i / D)
    pos = torch.arange(start_pos, start_pos + L, device=x.device, dtype=torch.float64)
    theta = torch.einsum("l,f->lf", pos, inv_freq)
    cos, sin = theta.cos().to(x.dtype), theta.sin().to(x.dtype)

    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
