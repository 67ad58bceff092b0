# kata: offset-causal-mask
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    # block over the new tokens: ordinary causal triangle
    new_block = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device))
    # columns for the cached keys
    cache_block = torch.zeros(seq_len, start_pos, dtype=torch.bool, device=device)
    return torch.cat([cache_block, new_block], dim=-1)
