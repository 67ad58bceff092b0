# kata: sliding-window-mask
# why: a square [seq_len, seq_len] mask over the new keys only
# mistake: square
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    total_len = seq_len
    q_idx = torch.arange(seq_len, device=device).unsqueeze(1) + start_pos
    k_idx = torch.arange(total_len, device=device).unsqueeze(0) + start_pos
    return (k_idx <= q_idx) & (k_idx > q_idx - window)
