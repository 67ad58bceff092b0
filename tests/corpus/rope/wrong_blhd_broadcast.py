# kata: rope
# why: cos/sin broadcast as [L, 1, D], the [B, L, H, D] layout's shape: breaks unless L equals H or 1
# mistake: positions_along_heads
import torch


def rotate_half(x):
    d = x.shape[-1] // 2
    return torch.cat((-x[..., d:], x[..., :d]), dim=-1)


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    seq_len, dim = x.shape[-2], x.shape[-1]
    inv_freq = 1.0 / base ** (torch.arange(0, dim, 2, device=x.device).float() / dim)
    pos = torch.arange(start_pos, start_pos + seq_len, device=x.device).float()
    freqs = torch.outer(pos, inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos = emb.cos()[:, None, :]  # [seq, 1, dim], broadcast over the heads
    sin = emb.sin()[:, None, :]
    return (x * cos + rotate_half(x) * sin).to(x.dtype)
