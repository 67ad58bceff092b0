# kata: rope
# why: B, L, H, D = x.shape: the positions counted along dim 1 (the heads here)
# mistake: positions_along_heads
import torch


def apply_rope(x, start_pos=0, base=10000.0):
    B, L, H, D = x.shape
    inv = 1.0 / (base ** (torch.arange(0, D, 2, dtype=torch.float32, device=x.device) / D))
    t = torch.arange(start_pos, start_pos + L, dtype=torch.float32, device=x.device)
    f = torch.outer(t, inv)
    cos = torch.cat([f.cos(), f.cos()], -1).unsqueeze(0).unsqueeze(2)
    sin = torch.cat([f.sin(), f.sin()], -1).unsqueeze(0).unsqueeze(2)
    x1, x2 = x[..., : D // 2], x[..., D // 2 :]
    rot = torch.cat([-x2, x1], -1)
    return (x.float() * cos + rot.float() * sin).to(x.dtype)
