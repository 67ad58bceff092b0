# kata: causal-mask
# why: expands to [n_head, batch_size, L, L]: batch and head dims swapped
# mistake: heads_first
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    causal_2d = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device))
    return causal_2d.expand(n_head, batch_size, seq_len, seq_len)
