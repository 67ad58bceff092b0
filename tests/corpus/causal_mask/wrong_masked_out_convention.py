# kata: causal-mask
# why: nn.MultiheadAttention's convention (True = masked out): the strict upper triangle
# mistake: mask_inverted
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    future = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device), diagonal=1)
    return future.expand(batch_size, n_head, seq_len, seq_len)
