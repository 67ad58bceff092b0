# kata: rope
import torch


class RotaryEmbedding:
    def __init__(self, dim, base=10000.0, device=None):
        self.dim = dim
        self.base = base
        self.inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float().to(device) / dim))

    def __call__(self, x, seq_len):
        t = torch.arange(seq_len, device=x.device).float()
        freqs = torch.outer(t, self.inv_freq.to(x.device))
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


def rotate_half(x):
    """Rotates half the hidden dims of the input."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    L, D = x.shape[-2], x.shape[-1]
    rotary = RotaryEmbedding(D, base=base, device=x.device)
    cos, sin = rotary(x, seq_len=L)  # [L, D], broadcast over batch and heads
    return (x * cos) + (rotate_half(x) * sin)
