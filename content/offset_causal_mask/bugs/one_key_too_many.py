# kata: offset-causal-mask
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    # [seq_len, start_pos + seq_len]: the cache columns come first, then the new tokens.
    # Shift the tril diagonal to the right so the whole cache stays visible.
    ones = torch.ones(seq_len, start_pos + seq_len, dtype=torch.bool, device=device)
    return torch.tril(ones, diagonal=start_pos + 1)
