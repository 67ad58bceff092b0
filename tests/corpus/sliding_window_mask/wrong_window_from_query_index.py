# kata: sliding-window-mask
# why: the causal part uses the absolute position, the window the query's index i: no known mistake models it
# mistake: none
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    i = torch.arange(seq_len, device=device)[:, None]
    j = torch.arange(start_pos + seq_len, device=device)[None, :]
    return (j <= start_pos + i) & (j > i - window)
