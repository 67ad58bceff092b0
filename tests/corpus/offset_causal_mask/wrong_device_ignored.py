# kata: offset-causal-mask
# why: the notes' aranges without device=: the mask ignores the device asked for
# mistake: device_ignored
import torch


def create_offset_causal_mask(seq_len, start_pos, device=None):
    total_len = start_pos + seq_len
    q_idx = torch.arange(seq_len).unsqueeze(1)
    k_idx = torch.arange(total_len).unsqueeze(0)
    return k_idx <= (start_pos + q_idx)
