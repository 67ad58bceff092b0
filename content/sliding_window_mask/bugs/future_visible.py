# kata: sliding-window-mask
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    # absolute positions: new queries start at start_pos, keys cover cache + new
    q_pos = torch.arange(start_pos, start_pos + seq_len, device=device).view(-1, 1)
    k_pos = torch.arange(start_pos + seq_len, device=device).view(1, -1)
    # each query keeps the last `window` keys
    return (q_pos - k_pos).abs() < window
