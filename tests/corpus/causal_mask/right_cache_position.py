# kata: causal-mask
# why: Hugging Face's masking_utils style: cache_position on device, the keys' arange following cache_position.device
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    cache_position = torch.arange(seq_len, device=device)
    kv_arange = torch.arange(seq_len, device=cache_position.device)
    causal = kv_arange[None, :] <= cache_position[:, None]  # key index <= query position
    return causal[None, None, :, :].expand(batch_size, n_head, -1, -1)
