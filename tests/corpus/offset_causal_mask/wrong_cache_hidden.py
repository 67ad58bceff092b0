# kata: offset-causal-mask
# why: right shape, but the cached keys are masked out: only the causal block over the new keys is True
# mistake: cache_hidden
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    cache = torch.zeros(seq_len, start_pos, dtype=torch.bool, device=device)
    new = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device))
    return torch.cat([cache, new], dim=1)
