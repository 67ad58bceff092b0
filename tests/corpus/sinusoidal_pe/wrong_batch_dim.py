# kata: sinusoidal-pe
# why: returns the tutorial's [1, seq_len, d_model] buffer, batch dim included
# mistake: batch_dim
import math

import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    if d_model % 2:
        raise ValueError("d_model must be even")
    pe = torch.zeros(seq_len, d_model, device=device)
    position = torch.arange(start_pos, start_pos + seq_len, device=device).float().unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2, device=device).float() * (-math.log(base) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe.unsqueeze(0).to(dtype)
