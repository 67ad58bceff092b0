# kata: sliding-window-mask
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    q = torch.arange(seq_len, device=device)[:, None]
    k = torch.arange(start_pos + seq_len, device=device)[None, :]
    dist = q - k  # how far back each key is
    return torch.where(dist >= 0, dist < window, False)
