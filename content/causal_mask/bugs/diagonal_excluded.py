# kata: causal-mask
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    # row i = query position i: it may look at keys 0 .. i
    mask = torch.zeros(seq_len, seq_len, dtype=torch.bool, device=device)
    for i in range(seq_len):
        mask[i, :i] = True
    # same mask for every batch element and head: [B, H, L, L]
    return mask.unsqueeze(0).unsqueeze(0).expand(batch_size, n_head, seq_len, seq_len)
