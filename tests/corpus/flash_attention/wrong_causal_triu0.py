# kata: flash-attention
# why: the block's causal mask from triu(diagonal=0) shifted by the offset: the diagonal masked, -inf fill
# mistake: causal_hides_diagonal
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    *bh, Lq, D = q.shape
    Lk = k.shape[-2]
    acc_t = torch.float64 if q.dtype == torch.float64 else torch.float32
    out = torch.zeros(*bh, Lq, v.shape[-1], dtype=acc_t, device=q.device)
    row_max = torch.full((*bh, Lq, 1), float("-inf"), dtype=acc_t, device=q.device)
    row_sum = torch.zeros(*bh, Lq, 1, dtype=acc_t, device=q.device)
    for start in range(0, Lk, block_size):
        end = min(start + block_size, Lk)
        s = torch.matmul(q.to(acc_t), k[..., start:end, :].to(acc_t).transpose(-2, -1)) / math.sqrt(D)
        if causal:
            hide = torch.ones(Lq, end - start, dtype=torch.bool, device=q.device).triu(Lk - Lq - start)
            s = s.masked_fill(hide, float("-inf"))
        new_max = torch.maximum(row_max, s.max(dim=-1, keepdim=True).values)
        safe = torch.where(torch.isinf(new_max), torch.zeros_like(new_max), new_max)
        p = torch.exp(s - safe)
        corr = torch.exp(row_max - safe)
        row_sum = row_sum * corr + p.sum(-1, keepdim=True)
        out = out * corr + p @ v[..., start:end, :].to(acc_t)
        row_max = new_max
    return (out / row_sum).to(q.dtype)
