# kata: causal-mask
"""A batched causal mask for multi-head attention.

Write `create_batch_causal_mask(batch_size, n_head, seq_len, device=None) -> Tensor`.

Contract:
    returns a bool tensor of shape [batch_size, n_head, seq_len, seq_len] with
        mask[b, h, i, j] = (j <= i)       True = query i may attend to key j
    i.e. the lower triangle, diagonal included, the same for every batch and head.

    It is created on `device` (None = the default device). Pass device= to the tensors you
    create: the checker runs on the GPU when there is one, and also asks for a `meta` mask.

seq_len may be 1. Returning an expanded view is fine.

Run `kata check causal-mask` to test; `kata hint causal-mask` for a nudge.
"""
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    raise NotImplementedError("write create_batch_causal_mask")
