# kata: flash-attention
# why: tracks the running max but never rescales what was summed under the old max (no exp(m_old - m_new))
# mistake: no_rescale
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    m = torch.full((B, H, Lq, 1), -math.inf, device=q.device)
    l = torch.zeros((B, H, Lq, 1), device=q.device)
    o = torch.zeros((B, H, Lq, v.shape[-1]), device=q.device)
    rows = torch.arange(Lq, device=q.device)[:, None] + Lk - Lq
    for j in range(0, Lk, block_size):
        s = q.float() @ k[:, :, j:j + block_size].float().transpose(-2, -1) / math.sqrt(D)
        if causal:
            s = s.masked_fill(torch.arange(j, j + s.shape[-1], device=q.device) > rows, -math.inf)
        m = torch.maximum(m, s.amax(-1, keepdim=True))
        p = torch.exp(s - m)
        l = l + p.sum(-1, keepdim=True)
        o = o + p @ v[:, :, j:j + block_size].float()
    return (o / l).to(q.dtype)
