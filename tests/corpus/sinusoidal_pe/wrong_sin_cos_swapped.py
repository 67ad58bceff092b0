# kata: sinusoidal-pe
# why: cos on the even columns and sin on the odd ones
# mistake: sin_cos_swapped
import math

import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    assert d_model % 2 == 0
    pe = torch.zeros(seq_len, d_model, device=device)
    position = torch.arange(start_pos, start_pos + seq_len, device=device, dtype=torch.float32)[:, None]
    div = torch.exp(torch.arange(0, d_model, 2, device=device, dtype=torch.float32) * (-math.log(base) / d_model))
    pe[:, 0::2] = torch.cos(position * div)
    pe[:, 1::2] = torch.sin(position * div)
    return pe.to(dtype)
