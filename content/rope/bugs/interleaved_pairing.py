# kata: rope
import torch


def precompute_freqs_cis(dim: int, start: int, end: int, theta: float = 10000.0, device=None):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2, device=device)[: (dim // 2)].float() / dim))
    t = torch.arange(start, end, device=device).float()
    freqs = torch.outer(t, freqs)  # [L, D/2]
    return torch.polar(torch.ones_like(freqs), freqs)  # complex64, e^{i·θ}


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    B, H, L, D = x.shape
    freqs_cis = precompute_freqs_cis(D, start_pos, start_pos + L, base, device=x.device)
    # each pair of features is one complex number; multiplying by e^{iθ} rotates it
    x_ = torch.view_as_complex(x.float().reshape(B, H, L, -1, 2))
    out = torch.view_as_real(x_ * freqs_cis).flatten(3)
    return out.type_as(x)
