# kata: causal-mask
import numpy as np
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    tri = np.tril(np.ones((seq_len, seq_len), dtype=bool))
    tri = np.broadcast_to(tri, (batch_size, n_head, seq_len, seq_len))
    return torch.from_numpy(tri.copy())
