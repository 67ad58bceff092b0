"""Sinusoidal positional encoding.

Vaswani et al., "Attention Is All You Need" (2017), §3.5:
    PE(pos, 2i) = sin(pos / 10000^(2i / d_model)),   PE(pos, 2i + 1) = cos(pos / 10000^(2i / d_model))
interleaved, as the Annotated Transformer, the PyTorch tutorial and DistilBERT's
`create_sinusoidal_embeddings` build it (tensor2tensor's [sin | cos] halves are another function).
Rows are the absolute positions start_pos … start_pos + seq_len − 1, so a decoder with a cache can
ask for the rows it is at. Angles in float64 (on the CPU: not every device has float64), rounded once
to the dtype asked for.
"""
import torch


def sinusoidal_position_encoding(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    """[seq_len, d_model]: even columns sin, odd columns cos, of position / base^(2i / d_model)."""
    if d_model % 2 != 0:
        raise ValueError(f"d_model must be even, got {d_model}")
    assert seq_len >= 0 and start_pos >= 0 and base > 0, (seq_len, start_pos, base)
    position = torch.arange(start_pos, start_pos + seq_len, dtype=torch.float64)  # (L,)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (d/2,) the even column indices
    inv_freq = base ** (-two_i / d_model)  # (d/2,) 1 / base^(2i/d)
    angle = position[:, None] * inv_freq[None, :]  # (L, d/2)
    pe = torch.empty(seq_len, d_model, dtype=torch.float64)  # (L, d)
    pe[:, 0::2] = torch.sin(angle)  # PE(pos, 2i)
    pe[:, 1::2] = torch.cos(angle)  # PE(pos, 2i + 1)
    return pe.to(device=device, dtype=dtype)
