# kata: sinusoidal-pe
import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    if d_model % 2:
        raise ValueError("d_model must be even")
    pos = torch.arange(start_pos, start_pos + seq_len, device=device, dtype=dtype)
    i = torch.arange(0, d_model, 2, device=device, dtype=dtype)
    inv_freq = 1.0 / (base ** (i / d_model))
    angle = pos[:, None] * inv_freq[None, :]
    pe = torch.empty(seq_len, d_model, device=device, dtype=dtype)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
