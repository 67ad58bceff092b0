# kata: rope
# why: rotate_half returns cat((x2, x1)): the minus sign on the second half is gone
# mistake: rotate_half_unnegated
import torch


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((x2, x1), dim=-1)


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    L, D = x.shape[-2], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, device=x.device, dtype=torch.float32) / D))
    t = torch.arange(start_pos, start_pos + L, device=x.device, dtype=torch.float32)
    emb = torch.cat([torch.outer(t, inv_freq)] * 2, dim=-1)
    return (x * emb.cos() + rotate_half(x) * emb.sin()).to(x.dtype)
