# kata: rope
# why: forgets start_pos: every call rotates its rows as if they were positions 0 … L-1 (breaks decoding with a KV cache)
# mistake: offset_ignored
import torch


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, start_pos=0, base=10000.0):
    L, D = x.shape[-2:]
    inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, device=x.device).float() / D))
    t = torch.arange(L, device=x.device).float()
    emb = torch.cat([torch.outer(t, inv_freq)] * 2, dim=-1)
    return x * emb.cos().to(x.dtype) + rotate_half(x) * emb.sin().to(x.dtype)
