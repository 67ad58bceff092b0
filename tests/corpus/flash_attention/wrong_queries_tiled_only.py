# kata: flash-attention
# why: tiles the queries into blocks but gives each tile every key at once ([B, H, block, Lk] scores)
# mistake: none
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    parts = []
    for i in range(0, Lq, block_size):
        qb = q[:, :, i:i + block_size].float()
        s = qb @ k.float().transpose(-2, -1) / math.sqrt(D)
        if causal:
            rows = torch.arange(i, i + qb.shape[2], device=q.device)[:, None] + Lk - Lq
            s = s.masked_fill(torch.arange(Lk, device=q.device) > rows, -math.inf)
        parts.append(torch.softmax(s, -1) @ v.float())
    return torch.cat(parts, dim=2).to(q.dtype)
