# kata: causal-mask
# why: returns a float 0/1 mask, not bool
# mistake: float_mask
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    causal_2d = torch.tril(torch.ones(seq_len, seq_len, device=device))
    return causal_2d[None, None, :, :].expand(batch_size, n_head, seq_len, seq_len)
