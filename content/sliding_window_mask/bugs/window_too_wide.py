# kata: sliding-window-mask
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    total = start_pos + seq_len
    ones = torch.ones(seq_len, total, dtype=torch.bool, device=device)
    # row i is absolute position start_pos + i
    causal = torch.tril(ones, diagonal=start_pos)  # keys at or before the query
    recent = torch.triu(ones, diagonal=start_pos - window)  # keys inside the window
    return causal & recent
