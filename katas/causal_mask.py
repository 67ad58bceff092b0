# kata: causal-mask
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    raise NotImplementedError("write create_batch_causal_mask")
