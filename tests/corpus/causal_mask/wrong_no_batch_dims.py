# kata: causal-mask
# why: returns the [L, L] triangle and relies on broadcasting instead of the [B, H, L, L] asked for
# mistake: no_batch_dims
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    return torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device))
