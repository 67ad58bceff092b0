# kata: flash-attention
# why: each block subtracts its own max and nothing carries it over: the blocks' exp sums are on different scales
# mistake: max_not_carried
import math

import torch


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    t = torch.promote_types(q.dtype, torch.float32)
    acc = torch.zeros(B, H, Lq, v.shape[-1], dtype=t, device=q.device)
    denom = torch.zeros(B, H, Lq, 1, dtype=t, device=q.device)
    qi = torch.arange(Lq, device=q.device)[:, None] + (Lk - Lq)
    for start in range(0, Lk, block_size):
        kb = k[:, :, start:start + block_size].to(t)
        vb = v[:, :, start:start + block_size].to(t)
        s = (q.to(t) @ kb.transpose(-2, -1)) / math.sqrt(D)
        if causal:
            kj = torch.arange(start, start + kb.shape[2], device=q.device)[None, :]
            s = s.masked_fill(kj > qi, float("-inf"))
        block_max = s.amax(dim=-1, keepdim=True)
        p = torch.exp(s - block_max).nan_to_num(0.0)
        denom = denom + p.sum(-1, keepdim=True)
        acc = acc + p @ vb
    return (acc / denom).to(q.dtype)
