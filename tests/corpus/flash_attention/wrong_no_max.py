# kata: flash-attention
# why: a running sum of exp(scores) without any max: exact until a score passes ~88 (float32 exp overflows), then inf / inf = NaN
# mistake: max_not_subtracted
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    dt = torch.float64 if q.dtype == torch.float64 else torch.float32
    l = torch.zeros((B, H, Lq, 1), device=q.device, dtype=dt)
    o = torch.zeros((B, H, Lq, v.shape[-1]), device=q.device, dtype=dt)
    rows = torch.arange(Lq, device=q.device)[:, None] + Lk - Lq
    for j in range(0, Lk, block_size):
        s = q.to(dt) @ k[:, :, j:j + block_size].to(dt).transpose(-2, -1) / math.sqrt(D)
        if causal:
            s = s.masked_fill(torch.arange(j, j + s.shape[-1], device=q.device) > rows, -math.inf)
        p = torch.exp(s)
        l = l + p.sum(-1, keepdim=True)
        o = o + p @ v[:, :, j:j + block_size].to(dt)
    return (o / l).to(q.dtype)
