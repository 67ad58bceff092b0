# kata: offset-causal-mask
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    return torch.ones(seq_len, start_pos + seq_len, dtype=torch.bool, device=device).tril(diagonal=start_pos)
