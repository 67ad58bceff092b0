# kata: sliding-window-mask
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    mask = torch.zeros(seq_len, start_pos + seq_len, dtype=torch.bool, device=device)
    mask[:, :start_pos] = True  # cached keys
    for i in range(seq_len):
        lo = max(0, i - window + 1)
        mask[i, start_pos + lo:start_pos + i + 1] = True
    return mask
