# kata: sliding-window-mask
# why: the band built in NumPy and returned as torch.from_numpy(...) without .to(device): it stays on the CPU
# mistake: device_ignored
import numpy as np
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    q = np.arange(start_pos, start_pos + seq_len)[:, None]
    k = np.arange(start_pos + seq_len)[None, :]
    return torch.from_numpy((k <= q) & (k > q - window))
