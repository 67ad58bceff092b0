# kata: sinusoidal-pe
import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    raise NotImplementedError("write sinusoidal_position_encoding")
