"""Sliding-window causal mask for decoding with a KV cache.

As in Longformer / Mistral's sliding-window attention (Beltagy et al. 2020; Jiang et al. 2023):
a query at absolute position p sees only the last `window` keys, itself included,
i.e. p - window < j <= p.
"""
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    """bool (seq_len, start_pos + seq_len), True = may attend, on `device`."""
    assert seq_len >= 1 and start_pos >= 0, f"need seq_len >= 1, start_pos >= 0; got {seq_len}, {start_pos}"
    assert window >= 1, f"window must be >= 1, got {window}"
    q_pos = start_pos + torch.arange(seq_len, device=device)[:, None]  # (L, 1) absolute positions
    k_pos = torch.arange(start_pos + seq_len, device=device)[None, :]  # (1, S)
    return (k_pos <= q_pos) & (k_pos > q_pos - window)  # (L, S)
