# kata: sliding-window-mask
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    raise NotImplementedError("write create_sliding_window_mask")
