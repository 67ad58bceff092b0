# kata: rope
# why: right math, but x.view(B * H, L, D) to flatten batch and heads: a non-contiguous x (q.view(B, L, H, D).transpose(1, 2)) makes view raise
# mistake: none
import torch


def apply_rope(x, start_pos=0, base=10000.0):
    B, H, L, D = x.shape
    inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, device=x.device).float() / D))
    t = torch.arange(start_pos, start_pos + L, device=x.device).float()
    freqs = torch.outer(t, inv_freq)
    cos, sin = freqs.cos().to(x.dtype), freqs.sin().to(x.dtype)
    flat = x.view(B * H, L, D)
    x1, x2 = flat[..., : D // 2], flat[..., D // 2 :]
    out = torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
    return out.view(B, H, L, D)
