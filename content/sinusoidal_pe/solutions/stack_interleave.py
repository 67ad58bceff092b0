# kata: sinusoidal-pe
import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    if d_model % 2 == 1:
        raise ValueError("d_model must be even")
    pos = torch.arange(start_pos, start_pos + seq_len, dtype=torch.float64, device=device)
    inv_freq = 1.0 / (base ** (torch.arange(0, d_model, 2, dtype=torch.float64, device=device) / d_model))
    ang = torch.outer(pos, inv_freq)
    return torch.stack([ang.sin(), ang.cos()], dim=-1).flatten(-2).to(dtype)
