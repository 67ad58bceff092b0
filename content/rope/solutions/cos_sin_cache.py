# kata: rope
import torch

_cache = {}


def _table(D, base, upto, device):
    key = (D, base, device)
    cached = _cache.get(key)
    if cached is None or cached[0].shape[0] < upto:
        size = max(upto, 2048)
        inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, dtype=torch.int64).float().to(device) / D))
        t = torch.arange(size, device=device).float()
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cached = (emb.cos(), emb.sin())
        _cache[key] = cached
    return cached


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    L, D = x.shape[-2], x.shape[-1]
    cos, sin = _table(D, base, start_pos + L, x.device)
    cos = cos[start_pos:start_pos + L].to(x.dtype)
    sin = sin[start_pos:start_pos + L].to(x.dtype)
    return (x * cos) + (rotate_half(x) * sin)
