# kata: rope
# why: written for the [B, L, H, D] layout (positions along dim 1, cos broadcast as [L, 1, D]): on [B, H, L, D] it rotates by head index
# mistake: positions_along_heads
import torch


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, start_pos=0, base=10000.0):
    L, D = x.shape[1], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, device=x.device).float() / D))
    t = torch.arange(start_pos, start_pos + L, device=x.device).float()
    emb = torch.cat([torch.outer(t, inv_freq)] * 2, dim=-1)[:, None, :]
    return x * emb.cos().to(x.dtype) + rotate_half(x) * emb.sin().to(x.dtype)
