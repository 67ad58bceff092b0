# kata: offset-causal-mask
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    total_len = start_pos + seq_len  # cached keys + new keys
    q_idx = torch.arange(seq_len, device=device).unsqueeze(1)  # [seq_len, 1]
    k_idx = torch.arange(total_len, device=device).unsqueeze(0)  # [1, total_len]
    causal_mask = k_idx <= q_idx  # [seq_len, total_len]
    return causal_mask
