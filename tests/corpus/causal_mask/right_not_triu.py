# kata: causal-mask
# why: the complement of the strict upper triangle, repeated (a real copy) over batch and heads
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    future = torch.ones(seq_len, seq_len, dtype=torch.bool, device=device).triu(diagonal=1)
    return (~future).repeat(batch_size, n_head, 1, 1)
