# kata: offset-causal-mask
# why: cache_position = torch.arange(start_pos, start_pos + seq_len) without device=, compared with keys made on device
# mistake: none
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    cache_position = torch.arange(start_pos, start_pos + seq_len)
    kv_arange = torch.arange(start_pos + seq_len, device=device)
    return kv_arange[None, :] <= cache_position[:, None]
