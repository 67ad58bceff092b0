# kata: offset-causal-mask
# why: the cached keys (all visible) beside a causal block, concatenated on the CPU and moved with .to(device) at the end
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    past = torch.ones(seq_len, start_pos, dtype=torch.bool)
    block = torch.ones(seq_len, seq_len, dtype=torch.bool).tril()
    return torch.cat([past, block], dim=-1).to(device)
