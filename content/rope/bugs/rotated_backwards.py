# kata: rope
import torch


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((x2, -x1), dim=-1)


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    L, D = x.shape[-2:]
    inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, device=x.device).float() / D))
    positions = torch.arange(start_pos, start_pos + L, device=x.device).float()
    angles = positions[:, None] * inv_freq[None, :]  # [L, D/2]
    emb = torch.cat([angles, angles], dim=-1)  # the same angle for i and i + D/2
    cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)
    return x * cos + rotate_half(x) * sin
