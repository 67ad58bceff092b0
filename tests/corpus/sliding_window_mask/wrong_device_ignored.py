# kata: sliding-window-mask
# why: aranges without device=: the mask ignores the device asked for
# mistake: device_ignored
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    total_len = start_pos + seq_len
    q_idx = torch.arange(seq_len).unsqueeze(1) + start_pos
    k_idx = torch.arange(total_len).unsqueeze(0)
    return (k_idx <= q_idx) & (k_idx > q_idx - window)
