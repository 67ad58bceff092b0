# kata: sliding-window-mask
# why: a band cut with tril/triu on the CPU, then .to(device)
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    ones = torch.ones(seq_len, start_pos + seq_len, dtype=torch.bool)
    band = ones.tril(diagonal=start_pos).triu(diagonal=start_pos - window + 1)
    return band.to(device)
