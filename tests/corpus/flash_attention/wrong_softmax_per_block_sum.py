# kata: flash-attention
# why: softmax inside each block, the blocks' outputs added up: each block normalised on its own
# mistake: blocks_normalised_separately
import math

import torch


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    work = torch.promote_types(q.dtype, torch.float32)
    out = torch.zeros(B, H, Lq, v.shape[-1], dtype=work, device=q.device)
    rows = torch.arange(Lq, device=q.device)[:, None] + (Lk - Lq)
    for j in range(0, Lk, block_size):
        kb, vb = k[:, :, j:j + block_size].to(work), v[:, :, j:j + block_size].to(work)
        s = q.to(work) @ kb.transpose(-2, -1) / math.sqrt(D)
        if causal:
            s = s.masked_fill(torch.arange(j, j + kb.shape[2], device=q.device)[None, :] > rows, float("-inf"))
        out = out + torch.softmax(s, dim=-1).nan_to_num(0.0) @ vb
    return out.to(q.dtype)
