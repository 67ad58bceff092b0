# kata: causal-mask
# why: the query positions come from torch.arange(seq_len) with no device=, the keys' from device=device: they meet on the GPU
# mistake: none
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    q = torch.arange(seq_len)[:, None]
    k = torch.arange(seq_len, device=device)[None, :]
    return (k <= q)[None, None].expand(batch_size, n_head, seq_len, seq_len)
