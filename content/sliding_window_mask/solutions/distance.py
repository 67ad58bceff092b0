# kata: sliding-window-mask
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    q_pos = torch.arange(start_pos, start_pos + seq_len, device=device).view(-1, 1)
    k_pos = torch.arange(start_pos + seq_len, device=device).view(1, -1)
    back = q_pos - k_pos
    return (back >= 0) & (back < window)
