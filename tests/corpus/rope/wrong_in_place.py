# kata: rope
# why: rotates x in place (x[..., :half] = …): the caller's queries change under it
# mistake: none
import torch


def apply_rope(x, start_pos=0, base=10000.0):
    L, D = x.shape[-2:]
    half = D // 2
    inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, device=x.device).float() / D))
    t = torch.arange(start_pos, start_pos + L, device=x.device).float()
    freqs = torch.outer(t, inv_freq)
    cos, sin = freqs.cos().to(x.dtype), freqs.sin().to(x.dtype)
    x1, x2 = x[..., :half].clone(), x[..., half:].clone()
    x[..., :half] = x1 * cos - x2 * sin
    x[..., half:] = x2 * cos + x1 * sin
    return x
