# kata: sliding-window-mask
"""A sliding-window causal mask for decoding with a KV cache.

Write `create_sliding_window_mask(seq_len, start_pos, window, device=None) -> Tensor`.

As in `offset-causal-mask`: `seq_len` new queries at absolute positions p = start_pos + i over
start_pos + seq_len keys. In addition each query sees only its last `window` keys, itself
included.

Contract:
    returns a bool tensor of shape [seq_len, start_pos + seq_len] with, for p = start_pos + i,
        mask[i, j] = (j <= p) and (j > p - window)      True = may attend
    window >= 1: window = 1 means each query sees only its own key; a window longer than the
    whole history is the plain offset causal mask.

    It is created on `device` (None = the default device). Pass device= to the tensors you
    create: the checker runs on the GPU when there is one, and also asks for a `meta` mask.

Run `kata check sliding-window-mask` to test; `kata hint sliding-window-mask` for a nudge.
"""
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    raise NotImplementedError("write create_sliding_window_mask")
