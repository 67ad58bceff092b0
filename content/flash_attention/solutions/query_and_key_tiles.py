# kata: flash-attention
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    offset = Lk - Lq
    acc_t = torch.float64 if q.dtype == torch.float64 else torch.float32
    out = torch.empty(B, H, Lq, v.shape[-1], dtype=q.dtype, device=q.device)
    for qs in range(0, Lq, block_size):
        qe = min(qs + block_size, Lq)
        qb = q[:, :, qs:qe].to(acc_t) / math.sqrt(D)
        m = torch.full((B, H, qe - qs, 1), float("-inf"), dtype=acc_t, device=q.device)
        l = torch.zeros((B, H, qe - qs, 1), dtype=acc_t, device=q.device)
        o = torch.zeros((B, H, qe - qs, v.shape[-1]), dtype=acc_t, device=q.device)
        last_key = offset + qe - 1 if causal else Lk - 1  # no key after this is visible to the tile
        for ks in range(0, last_key + 1, block_size):
            ke = min(ks + block_size, Lk)
            s = qb @ k[:, :, ks:ke].to(acc_t).transpose(-1, -2)
            if causal:
                qpos = torch.arange(qs, qe, device=q.device)[:, None] + offset
                kpos = torch.arange(ks, ke, device=q.device)[None, :]
                s = s.masked_fill(kpos > qpos, float("-inf"))
            m_new = torch.maximum(m, s.max(dim=-1, keepdim=True).values)
            p = torch.exp(s - m_new)
            scale = torch.exp(m - m_new)
            l = l * scale + p.sum(dim=-1, keepdim=True)
            o = o * scale + p @ v[:, :, ks:ke].to(acc_t)
            m = m_new
        out[:, :, qs:qe] = (o / l).to(q.dtype)
    return out
