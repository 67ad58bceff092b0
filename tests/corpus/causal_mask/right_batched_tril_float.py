# kata: causal-mask
# why: tril of a 4-D float tensor of ones (tril works on the last two dims), converted to bool
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    return torch.tril(torch.ones(batch_size, n_head, seq_len, seq_len, device=device)).bool()
