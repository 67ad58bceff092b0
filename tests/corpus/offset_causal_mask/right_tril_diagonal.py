# kata: offset-causal-mask
# why: a rectangular tril with the diagonal moved right by start_pos
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    return torch.ones(seq_len, start_pos + seq_len, dtype=torch.bool, device=device).tril(diagonal=start_pos)
