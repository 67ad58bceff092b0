# kata: sinusoidal-pe
# why: the exponent steps by 1 per pair (i / d_model) instead of 2i / d_model
# mistake: exponent_i_over_d
import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    if d_model % 2 != 0:
        raise ValueError("d_model must be even")
    i = torch.arange(d_model // 2, dtype=torch.float64, device=device)
    inv_freq = base ** (-i / d_model)
    pos = torch.arange(start_pos, start_pos + seq_len, dtype=torch.float64, device=device)
    angle = pos[:, None] * inv_freq
    pe = torch.stack((angle.sin(), angle.cos()), dim=-1).reshape(seq_len, d_model)
    return pe.to(dtype)
