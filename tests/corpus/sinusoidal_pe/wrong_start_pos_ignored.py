# kata: sinusoidal-pe
# why: rows always start at position 0, whatever start_pos says
# mistake: start_pos_ignored
import math

import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    if d_model % 2:
        raise ValueError("d_model must be even")
    pe = torch.zeros(seq_len, d_model, device=device)
    position = torch.arange(seq_len, device=device).float().unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2, device=device).float() * (-math.log(base) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe.to(dtype)
