# kata: causal-mask
# why: never passes device=: the mask lands on the default device, not the one asked for
# mistake: device_ignored
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    causal_2d = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool))
    return causal_2d[None, None, :, :].expand(batch_size, n_head, seq_len, seq_len)
