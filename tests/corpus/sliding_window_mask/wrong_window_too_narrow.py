# kata: sliding-window-mask
# why: k > q - window + 1 keeps only window - 1 keys
# mistake: window_too_narrow
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    total_len = start_pos + seq_len
    q_idx = torch.arange(seq_len, device=device).unsqueeze(1) + start_pos
    k_idx = torch.arange(total_len, device=device).unsqueeze(0)
    return (k_idx <= q_idx) & (k_idx > q_idx - window + 1)
