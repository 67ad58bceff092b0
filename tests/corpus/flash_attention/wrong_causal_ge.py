# kata: flash-attention
# why: the causal test key >= query position hides the diagonal too (finfo.min fill)
# mistake: causal_hides_diagonal
import math

import torch


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    work = torch.promote_types(q.dtype, torch.float32)
    q32, k32, v32 = q.to(work), k.to(work), v.to(work)
    neg = torch.finfo(work).min
    m = torch.full((B, H, Lq, 1), neg, dtype=work, device=q.device)
    l = torch.zeros(B, H, Lq, 1, dtype=work, device=q.device)
    o = torch.zeros(B, H, Lq, v.shape[-1], dtype=work, device=q.device)
    qpos = torch.arange(Lq, device=q.device)[:, None] + (Lk - Lq)
    for j in range(0, Lk, block_size):
        kj, vj = k32[:, :, j:j + block_size], v32[:, :, j:j + block_size]
        s = q32 @ kj.transpose(-1, -2) / math.sqrt(D)
        if causal:
            kpos = torch.arange(j, j + kj.shape[2], device=q.device)[None, :]
            s = s.masked_fill(kpos >= qpos, neg)
        m_new = torch.maximum(m, s.amax(-1, keepdim=True))
        p = torch.exp(s - m_new)
        scale = torch.exp(m - m_new)
        l = scale * l + p.sum(-1, keepdim=True)
        o = scale * o + p @ vj
        m = m_new
    return (o / l).to(q.dtype)
