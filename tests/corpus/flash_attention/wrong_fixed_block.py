# kata: flash-attention
# why: the online softmax is right, but the key blocks are always 128 wide whatever block_size says
# mistake: none
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    BLOCK = 128
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    m = torch.full((B, H, Lq, 1), -math.inf, device=q.device, dtype=torch.float64 if q.dtype == torch.float64 else torch.float32)
    l = torch.zeros_like(m)
    o = torch.zeros((B, H, Lq, v.shape[-1]), device=q.device, dtype=m.dtype)
    rows = torch.arange(Lq, device=q.device)[:, None] + Lk - Lq
    for j in range(0, Lk, BLOCK):
        s = q.to(m.dtype) @ k[:, :, j:j + BLOCK].to(m.dtype).transpose(-2, -1) / math.sqrt(D)
        if causal:
            s = s.masked_fill(torch.arange(j, j + s.shape[-1], device=q.device) > rows, -math.inf)
        m_new = torch.maximum(m, s.amax(-1, keepdim=True))
        p = torch.exp(s - m_new)
        alpha = torch.exp(m - m_new)
        l = alpha * l + p.sum(-1, keepdim=True)
        o = alpha * o + p @ v[:, :, j:j + BLOCK].to(m.dtype)
        m = m_new
    return (o / l).to(q.dtype)
