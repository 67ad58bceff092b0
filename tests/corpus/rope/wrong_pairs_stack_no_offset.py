# kata: rope
# why: adjacent pairs (x[0::2], x[1::2]) rotated and interleaved back, positions from 0 (start_pos unused)
# mistake: interleaved_pairing
import torch


def apply_rope(x, start_pos=0, base=10000.0):
    L, D = x.shape[-2:]
    theta = base ** (-torch.arange(0, D, 2, dtype=torch.float64, device=x.device) / D)
    angle = torch.arange(L, dtype=torch.float64, device=x.device)[:, None] * theta[None, :]
    c, s = angle.cos().to(x.dtype), angle.sin().to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.stack([even * c - odd * s, even * s + odd * c], dim=-1)
    return out.reshape(x.shape)
