# kata: flash-attention
# why: exp of the raw scores, summed block by block: no running max at all
# mistake: max_not_subtracted
import math

import torch


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    f = torch.promote_types(q.dtype, torch.float32)
    num = torch.zeros(B, H, Lq, v.shape[-1], dtype=f, device=q.device)
    den = torch.zeros(B, H, Lq, 1, dtype=f, device=q.device)
    rows = torch.arange(Lq, device=q.device).view(-1, 1) + Lk - Lq
    for s0 in range(0, Lk, block_size):
        kb = k[:, :, s0:s0 + block_size].to(f)
        vb = v[:, :, s0:s0 + block_size].to(f)
        w = torch.exp(q.to(f) @ kb.transpose(2, 3) / math.sqrt(D))
        if causal:
            cols = torch.arange(s0, s0 + kb.shape[2], device=q.device).view(1, -1)
            w = w * (cols <= rows)
        num += w @ vb
        den += w.sum(-1, keepdim=True)
    return (num / den).to(q.dtype)
