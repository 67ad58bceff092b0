# kata: causal-mask
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    pos = torch.arange(seq_len, device=device)
    return (pos[None, :] <= pos[:, None]).expand(batch_size, n_head, -1, -1)
