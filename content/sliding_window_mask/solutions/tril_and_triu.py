# kata: sliding-window-mask
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    ones = torch.ones(seq_len, start_pos + seq_len, dtype=torch.bool, device=device)
    return ones.tril(diagonal=start_pos) & ones.triu(diagonal=start_pos - window + 1)
