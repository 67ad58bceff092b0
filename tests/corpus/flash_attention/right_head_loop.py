# kata: flash-attention
# why: loops over batch and heads, each a 2-D problem [Lq, D], with torch.where and the finfo minimum instead of -inf
import math

import torch


def _one_head(q, k, v, block, causal):
    Lq, D = q.shape
    Lk = k.shape[0]
    neg = torch.finfo(q.dtype).min
    m = torch.full((Lq,), neg, dtype=q.dtype, device=q.device)
    l = torch.zeros(Lq, dtype=q.dtype, device=q.device)
    acc = torch.zeros(Lq, v.shape[1], dtype=q.dtype, device=q.device)
    rows = torch.arange(Lq, device=q.device) + (Lk - Lq)
    for j in range(0, Lk, block):
        kb, vb = k[j:j + block], v[j:j + block]
        s = (q @ kb.T) / math.sqrt(D)
        if causal:
            visible = torch.arange(j, j + kb.shape[0], device=q.device)[None, :] <= rows[:, None]
            s = torch.where(visible, s, torch.full_like(s, neg))
        m_new = torch.maximum(m, s.max(dim=1).values)
        p = torch.exp(s - m_new[:, None])
        if causal:
            p = torch.where(visible, p, torch.zeros_like(p))
        c = torch.exp(m - m_new)
        l = c * l + p.sum(dim=1)
        acc = c[:, None] * acc + p @ vb
        m = m_new
    return acc / l[:, None]


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    work = torch.float64 if q.dtype == torch.float64 else torch.float32
    B, H = q.shape[:2]
    out = torch.zeros(B, H, q.shape[2], v.shape[3], dtype=q.dtype, device=q.device)
    for b in range(B):
        for h in range(H):
            out[b, h] = _one_head(q[b, h].to(work), k[b, h].to(work), v[b, h].to(work), block_size, causal).to(q.dtype)
    return out
