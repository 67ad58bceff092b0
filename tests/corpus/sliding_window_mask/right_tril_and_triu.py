# kata: sliding-window-mask
# why: the intersection of two shifted triangles: tril(start_pos) & triu(start_pos - window + 1)
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    ones = torch.ones(seq_len, start_pos + seq_len, dtype=torch.bool, device=device)
    return ones.tril(diagonal=start_pos) & ones.triu(diagonal=start_pos - window + 1)
