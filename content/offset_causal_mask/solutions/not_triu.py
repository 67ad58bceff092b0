# kata: offset-causal-mask
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    total = start_pos + seq_len
    future = torch.triu(torch.ones(seq_len, total, dtype=torch.bool, device=device), diagonal=start_pos + 1)
    return ~future
