# kata: sliding-window-mask
# why: multiplies the two conditions as floats: a 0/1 float mask, not bool
# mistake: float_mask
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    total_len = start_pos + seq_len
    q_idx = torch.arange(seq_len, device=device).unsqueeze(1) + start_pos
    k_idx = torch.arange(total_len, device=device).unsqueeze(0)
    return (k_idx <= q_idx).float() * (k_idx > q_idx - window).float()
