# kata: sinusoidal-pe
import numpy as np
import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    if d_model % 2:
        raise ValueError(f"odd d_model {d_model}")
    position_enc = np.array([[pos / np.power(base, 2 * (j // 2) / d_model) for j in range(d_model)]
                             for pos in range(start_pos, start_pos + seq_len)]).reshape(seq_len, d_model)
    out = np.zeros((seq_len, d_model))
    out[:, 0::2] = np.sin(position_enc[:, 0::2])
    out[:, 1::2] = np.cos(position_enc[:, 1::2])
    return torch.from_numpy(out).to(device=device, dtype=dtype)
