# kata: causal-mask
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    mask = torch.zeros(batch_size, n_head, seq_len, seq_len, dtype=torch.bool, device=device)
    for i in range(seq_len):
        mask[:, :, i, : i + 1] = True
    return mask
