# kata: sliding-window-mask
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    mask = torch.zeros(seq_len, start_pos + seq_len, dtype=torch.bool, device=device)
    for i in range(seq_len):
        p = start_pos + i
        mask[i, max(0, p - window + 1): p + 1] = True
    return mask
