# kata: flash-attention
import math

import torch


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    B, H, Lq, D = q.shape
    Lk, Dv = k.shape[2], v.shape[3]
    dt = torch.float64 if q.dtype == torch.float64 else torch.float32
    qf = q.to(dt) / math.sqrt(D)

    row_max = torch.full((B, H, Lq, 1), -math.inf, dtype=dt, device=q.device)
    row_sum = torch.zeros((B, H, Lq, 1), dtype=dt, device=q.device)
    acc = torch.zeros((B, H, Lq, Dv), dtype=dt, device=q.device)
    q_idx = torch.arange(Lq, device=q.device)[:, None] + (Lk - Lq)

    for j in range(0, Lk, block_size):
        kj = k[:, :, j:j + block_size].to(dt)
        vj = v[:, :, j:j + block_size].to(dt)
        s = qf @ kj.transpose(-2, -1)  # [B, H, Lq, block]
        if causal:
            k_idx = torch.arange(j, j + kj.shape[2], device=q.device)[None, :]
            s = s.masked_fill(k_idx > q_idx, -math.inf)

        row_max = torch.maximum(row_max, s.amax(dim=-1, keepdim=True))
        p = torch.exp(s - row_max)
        row_sum = row_sum + p.sum(dim=-1, keepdim=True)
        acc = acc + p @ vj

    return (acc / row_sum).to(q.dtype)
