# kata: offset-causal-mask
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    cache = torch.ones(seq_len, start_pos, dtype=torch.bool, device=device)
    new = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device))
    return torch.cat([cache, new], dim=1)
