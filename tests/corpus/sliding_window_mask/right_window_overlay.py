# kata: sliding-window-mask
# why: Hugging Face's sliding_window_overlay: causal and (kv > q - window), the keys following cache_position.device
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    cache_position = torch.arange(start_pos, start_pos + seq_len, device=device)
    kv_idx = torch.arange(start_pos + seq_len, device=cache_position.device)[None, :]
    q_idx = cache_position[:, None]
    causal = kv_idx <= q_idx
    in_window = kv_idx > q_idx - window
    return causal & in_window
