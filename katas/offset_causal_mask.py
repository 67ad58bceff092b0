# kata: offset-causal-mask
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    raise NotImplementedError("write create_offset_causal_mask")
