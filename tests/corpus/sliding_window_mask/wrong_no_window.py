# kata: sliding-window-mask
# why: forgets the window: the plain offset causal mask
# mistake: window_ignored
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    total_len = start_pos + seq_len
    q_idx = torch.arange(seq_len, device=device).unsqueeze(1) + start_pos
    k_idx = torch.arange(total_len, device=device).unsqueeze(0)
    return k_idx <= q_idx
