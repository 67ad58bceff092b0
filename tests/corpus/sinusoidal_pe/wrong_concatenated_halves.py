# kata: sinusoidal-pe
# why: tensor2tensor's layout: all the sines, then all the cosines, concatenated
# mistake: concatenated_halves
import math

import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    if d_model % 2:
        raise ValueError("d_model must be even")
    freqs = torch.exp(-math.log(base) * torch.arange(0, d_model, 2, device=device, dtype=torch.float32) / d_model)
    pos = torch.arange(start_pos, start_pos + seq_len, device=device, dtype=torch.float32)
    args = pos[:, None] * freqs[None]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=-1).to(dtype)
