# kata: flash-attention
# why: each block's softmax output, then the mean over the blocks
# mistake: blocks_normalised_separately
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    Lq, Lk = q.size(2), k.size(2)
    f = torch.float64 if q.dtype == torch.float64 else torch.float32
    total = torch.zeros(*q.shape[:3], v.size(-1), dtype=f, device=q.device)
    blocks = 0
    for j in range(0, Lk, block_size):
        s = torch.einsum("bhid,bhjd->bhij", q.to(f), k[:, :, j:j + block_size].to(f)) / math.sqrt(q.size(-1))
        if causal:
            qi = torch.arange(Lq, device=q.device).unsqueeze(1) + Lk - Lq
            kj = torch.arange(j, min(j + block_size, Lk), device=q.device).unsqueeze(0)
            s = s.masked_fill(kj > qi, -torch.inf)
        total += torch.nan_to_num(s.softmax(-1)) @ v[:, :, j:j + block_size].to(f)
        blocks += 1
    return (total / blocks).to(q.dtype)
