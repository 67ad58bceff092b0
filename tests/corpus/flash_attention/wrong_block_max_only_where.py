# kata: flash-attention
# why: a fresh max per block (torch.where for the causal test), never rescaled against the earlier blocks
# mistake: max_not_carried
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    Lq, D, Lk = q.shape[-2], q.shape[-1], k.shape[-2]
    dt = torch.float64 if q.dtype == torch.float64 else torch.float32
    scale = 1.0 / math.sqrt(D)
    o = torch.zeros(*q.shape[:-1], v.shape[-1], dtype=dt, device=q.device)
    l = torch.zeros(*q.shape[:-1], 1, dtype=dt, device=q.device)
    for j0 in range(0, Lk, block_size):
        j1 = min(j0 + block_size, Lk)
        s = torch.einsum("bhqd,bhkd->bhqk", q.to(dt), k[:, :, j0:j1].to(dt)) * scale
        if causal:
            ok = torch.arange(j0, j1, device=q.device)[None, :] <= torch.arange(Lq, device=q.device)[:, None] + (Lk - Lq)
            s = torch.where(ok, s, torch.full_like(s, float("-inf")))
        mx = s.max(dim=-1, keepdim=True).values
        mx = torch.where(torch.isinf(mx), torch.zeros_like(mx), mx)
        p = (s - mx).exp()
        l += p.sum(-1, keepdim=True)
        o += torch.einsum("bhqk,bhkd->bhqd", p, v[:, :, j0:j1].to(dt))
    return (o / l).to(q.dtype)
