# kata: sinusoidal-pe
import math

import numpy as np
import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    if d_model % 2 == 1:
        raise ValueError("d_model must be even")
    table = np.zeros((seq_len, d_model))
    for r in range(seq_len):
        pos = start_pos + r
        for i in range(d_model // 2):
            angle = pos / base ** (i / d_model)
            table[r, 2 * i] = math.sin(angle)
            table[r, 2 * i + 1] = math.cos(angle)
    return torch.tensor(table, dtype=dtype, device=device)
