# kata: sinusoidal-pe
# why: the textbook code without a check: an odd d_model fails with a shape error, not ValueError
# mistake: none
import math

import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    pe = torch.zeros(seq_len, d_model, device=device)
    position = torch.arange(start_pos, start_pos + seq_len, device=device).float().unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2, device=device).float() * (-math.log(base) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe.to(dtype)
