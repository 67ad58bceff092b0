# kata: causal-mask
# why: takes the upper triangle: each query sees the future instead of the past
# mistake: triu
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    causal_2d = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device))
    return causal_2d[None, None, :, :].expand(batch_size, n_head, seq_len, seq_len)
