# kata: sinusoidal-pe
import math

import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    if d_model % 2 != 0:
        raise ValueError(f"d_model must be even, got {d_model}")
    positions = torch.arange(start_pos, start_pos + seq_len, dtype=torch.float32, device=device)
    freqs = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32, device=device) * (-math.log(base) / d_model))
    angles = torch.outer(positions, freqs)  # [seq_len, d_model // 2]
    pe = torch.cat([angles.sin(), angles.cos()], dim=-1)
    return pe.to(dtype)
