"""Causal (autoregressive) mask for a batch of multi-head attention maps.

Vaswani et al., "Attention Is All You Need" (2017), sec. 3.2.3: position i may attend to
positions j <= i, never to later ones.
"""
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    """bool (B, H, L, L) with mask[b, h, i, j] = j <= i (True = may attend), on `device`."""
    assert seq_len >= 1, f"seq_len must be >= 1, got {seq_len}"
    i = torch.arange(seq_len, device=device)[:, None]  # (L, 1) query positions
    j = torch.arange(seq_len, device=device)[None, :]  # (1, L) key positions
    causal = j <= i  # (L, L): the lower triangle, diagonal included
    return causal[None, None].expand(batch_size, n_head, seq_len, seq_len)  # (B, H, L, L)
