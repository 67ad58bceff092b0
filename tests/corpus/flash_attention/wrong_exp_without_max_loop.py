# kata: flash-attention
# why: online softmax by key blocks, exp(s) with no max subtracted; per (batch, head) loop
# mistake: max_not_subtracted
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    wide = torch.float64 if q.dtype == torch.float64 else torch.float32
    out = torch.empty(B, H, Lq, v.shape[3], dtype=q.dtype, device=q.device)
    for b in range(B):
        for h in range(H):
            qi = q[b, h].to(wide) / math.sqrt(D)
            total = torch.zeros(Lq, 1, dtype=wide, device=q.device)
            acc = torch.zeros(Lq, v.shape[3], dtype=wide, device=q.device)
            for j in range(0, Lk, block_size):
                kj = k[b, h, j:j + block_size].to(wide)
                vj = v[b, h, j:j + block_size].to(wide)
                e = torch.exp(qi @ kj.T)
                if causal:
                    allowed = torch.arange(j, j + kj.shape[0], device=q.device)[None] <= (torch.arange(Lq, device=q.device)[:, None] + Lk - Lq)
                    e = torch.where(allowed, e, torch.zeros_like(e))
                total += e.sum(1, keepdim=True)
                acc += e @ vj
            out[b, h] = (acc / total).to(q.dtype)
    return out
