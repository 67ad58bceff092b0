# kata: causal-mask
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    # lower triangle incl. diagonal: query i attends to keys j <= i
    causal_2d = torch.tril(torch.ones(seq_len, seq_len, device=device))
    mask = causal_2d[None, None, :, :].expand(batch_size, n_head, seq_len, seq_len)
    return mask
