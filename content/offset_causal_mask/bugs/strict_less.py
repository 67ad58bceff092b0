# kata: offset-causal-mask
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    mask = torch.zeros(seq_len, start_pos + seq_len, dtype=torch.bool, device=device)
    for i in range(seq_len):
        pos = start_pos + i  # absolute position of the i-th new token
        mask[i, :pos] = True
    return mask
