# kata: offset-causal-mask
# why: the notes' arange version, taking the device from the argument
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    total_len = start_pos + seq_len
    q_idx = torch.arange(seq_len, device=device).unsqueeze(1)  # [seq_len, 1]
    k_idx = torch.arange(total_len, device=device).unsqueeze(0)  # [1, total_len]
    return k_idx <= (start_pos + q_idx)  # [seq_len, total_len]
