"""Causal mask for decoding with a KV cache.

`seq_len` new queries sit at absolute positions start_pos .. start_pos + seq_len - 1 and attend
over all start_pos + seq_len keys (the cache plus themselves): query i sees key j iff
j <= start_pos + i.
"""
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    """bool (seq_len, start_pos + seq_len), True = may attend, on `device`."""
    assert seq_len >= 1 and start_pos >= 0, f"need seq_len >= 1, start_pos >= 0; got {seq_len}, {start_pos}"
    q_pos = start_pos + torch.arange(seq_len, device=device)[:, None]  # (L, 1) absolute positions
    k_pos = torch.arange(start_pos + seq_len, device=device)[None, :]  # (1, S)
    return k_pos <= q_pos  # (L, S)
