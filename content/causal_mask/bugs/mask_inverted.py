# kata: causal-mask
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    """Returns [batch_size, n_head, seq_len, seq_len]."""
    ones = torch.ones(seq_len, seq_len, dtype=torch.bool, device=device)
    causal = torch.triu(ones, diagonal=1)
    return causal.view(1, 1, seq_len, seq_len).repeat(batch_size, n_head, 1, 1)
