# kata: sinusoidal-pe
import math

import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    assert d_model % 2 == 0, "d_model must be even"
    rows = []
    for r in range(seq_len):
        pos = start_pos + r
        row = []
        for i in range(d_model // 2):
            angle = pos / base ** (2 * i / d_model)
            row += [math.sin(angle), math.cos(angle)]
        rows.append(row)
    if seq_len == 0:
        return torch.empty(0, d_model, dtype=dtype, device=device)
    return torch.tensor(rows, dtype=dtype, device=device)
