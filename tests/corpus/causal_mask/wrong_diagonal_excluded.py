# kata: causal-mask
# why: tril(diagonal=-1): a query may not attend to itself
# mistake: diagonal_excluded
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    causal_2d = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device), diagonal=-1)
    return causal_2d[None, None, :, :].expand(batch_size, n_head, seq_len, seq_len)
