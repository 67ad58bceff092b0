# kata: flash-attention
import math

import torch


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    dtype = torch.float64 if q.dtype == torch.float64 else torch.float32
    scale = D ** -0.5

    m = torch.full((B, H, Lq, 1), float("-inf"), dtype=dtype, device=q.device)
    l = torch.zeros(B, H, Lq, 1, dtype=dtype, device=q.device)
    o = torch.zeros(B, H, Lq, v.shape[-1], dtype=dtype, device=q.device)

    for kv_start in range(0, Lk, block_size):
        kv_end = min(kv_start + block_size, Lk)
        k_blk = k[:, :, kv_start:kv_end].to(dtype)
        v_blk = v[:, :, kv_start:kv_end].to(dtype)
        s = torch.einsum("bhqd,bhkd->bhqk", q.to(dtype), k_blk) * scale

        if causal:
            i = torch.arange(Lq, device=q.device)[:, None]
            j = torch.arange(kv_start, kv_end, device=q.device)[None, :]
            s = s.masked_fill(j > i, float("-inf"))

        m_new = torch.maximum(m, s.amax(-1, keepdim=True))
        # a row can still be fully masked in this block: exp(-inf - -inf) would be NaN
        m_safe = torch.where(torch.isinf(m_new), torch.zeros_like(m_new), m_new)
        p = torch.exp(s - m_safe)
        alpha = torch.exp(m - m_safe)
        l = alpha * l + p.sum(-1, keepdim=True)
        o = alpha * o + torch.einsum("bhqk,bhkd->bhqd", p, v_blk)
        m = m_new

    return (o / l).to(q.dtype)
