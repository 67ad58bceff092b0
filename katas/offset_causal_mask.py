# kata: offset-causal-mask
"""A causal mask for decoding with a KV cache.

Write `create_offset_causal_mask(seq_len, start_pos, device=None) -> Tensor`.

`start_pos` keys are already in the cache; `seq_len` new queries sit at absolute positions
start_pos, start_pos + 1, ..., start_pos + seq_len - 1, and attend over all start_pos + seq_len
keys (the cache plus the new ones).

Contract:
    returns a bool tensor of shape [seq_len, start_pos + seq_len] (not square when start_pos > 0)
        mask[i, j] = (j <= start_pos + i)    True = new query i may attend to key j
    start_pos = 0 gives the plain causal mask; seq_len = 1 is one decode step (all True).

    It is created on `device` (None = the default device). Pass device= to the tensors you
    create: the checker runs on the GPU when there is one, and also asks for a `meta` mask.

Run `kata check offset-causal-mask` to test; `kata hint offset-causal-mask` for a nudge.
"""
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    raise NotImplementedError("write create_offset_causal_mask")
