# kata: causal-mask
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    return torch.tril(torch.ones(batch_size, n_head, seq_len, seq_len, device=device)).bool()
