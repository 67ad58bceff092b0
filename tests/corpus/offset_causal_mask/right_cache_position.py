# kata: offset-causal-mask
# why: Hugging Face's masking_utils style: the queries' cache_position on device, the keys' arange on cache_position.device
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    cache_position = torch.arange(start_pos, start_pos + seq_len, device=device)
    kv_arange = torch.arange(start_pos + seq_len, device=cache_position.device)
    return kv_arange[None, :] <= cache_position[:, None]
