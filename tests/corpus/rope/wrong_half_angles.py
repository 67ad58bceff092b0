# kata: rope
# why: builds positions, inv_freq and the angles in x's dtype: in float16/bfloat16, positions in the hundreds lose whole radians
# mistake: half_precision_angles
import torch


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, start_pos=0, base=10000.0):
    L, D = x.shape[-2:]
    inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, device=x.device, dtype=x.dtype) / D))
    t = torch.arange(start_pos, start_pos + L, device=x.device, dtype=x.dtype)
    emb = torch.cat([torch.outer(t, inv_freq)] * 2, dim=-1)
    return x * emb.cos() + rotate_half(x) * emb.sin()
