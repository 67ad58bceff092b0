# kata: flash-attention
import math

import torch


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    acc_dtype = torch.float64 if q.dtype == torch.float64 else torch.float32
    out_dtype = q.dtype
    q = q.to(acc_dtype)

    m = torch.full((B, H, Lq, 1), -math.inf, dtype=acc_dtype, device=q.device)
    l = torch.zeros((B, H, Lq, 1), dtype=acc_dtype, device=q.device)
    o = torch.zeros((B, H, Lq, v.shape[-1]), dtype=acc_dtype, device=q.device)
    rows = torch.arange(Lq, device=q.device)[:, None] + Lk - Lq

    for j in range(0, Lk, block_size):
        kb = k[:, :, j:j + block_size].to(acc_dtype)
        vb = v[:, :, j:j + block_size].to(acc_dtype)
        s = q @ kb.transpose(-2, -1) / math.sqrt(D)
        if causal:
            cols = torch.arange(j, j + kb.shape[2], device=q.device)
            s = s.masked_fill(cols > rows, -math.inf)

        m_new = torch.maximum(m, s.amax(-1, keepdim=True))
        p = torch.exp(s - m_new)
        alpha = torch.exp(m - m_new)
        l = alpha * l + p.sum(-1, keepdim=True)
        o = (alpha * o + p @ vb) / l
        m = m_new

    return o.to(out_dtype)
