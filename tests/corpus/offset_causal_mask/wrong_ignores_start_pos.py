# kata: offset-causal-mask
# why: compares j <= i, forgetting that query i sits at start_pos + i
# mistake: start_pos_ignored
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    total_len = start_pos + seq_len
    q_idx = torch.arange(seq_len, device=device).unsqueeze(1)
    k_idx = torch.arange(total_len, device=device).unsqueeze(0)
    return k_idx <= q_idx
