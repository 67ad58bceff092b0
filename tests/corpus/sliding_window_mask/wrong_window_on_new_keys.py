# kata: sliding-window-mask
# why: builds the window over the new block only and keeps the whole cache visible: right when start_pos = 0
# mistake: window_on_new_keys_only
import torch


def create_sliding_window_mask(seq_len, start_pos, window, device=None):
    new = torch.ones(seq_len, seq_len, dtype=torch.bool, device=device)
    new = torch.tril(new) & torch.triu(new, diagonal=-(window - 1))
    cache = torch.ones(seq_len, start_pos, dtype=torch.bool, device=device)
    return torch.cat([cache, new], dim=1)
