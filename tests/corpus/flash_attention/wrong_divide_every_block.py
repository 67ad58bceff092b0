# kata: flash-attention
# why: divides the accumulator by the running sum inside the loop, then keeps rescaling it as if it were unnormalised
# mistake: divided_every_block
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    m = torch.full((B, H, Lq, 1), -math.inf, device=q.device)
    l = torch.zeros((B, H, Lq, 1), device=q.device)
    o = torch.zeros((B, H, Lq, v.shape[-1]), device=q.device)
    rows = torch.arange(Lq, device=q.device)[:, None] + Lk - Lq
    for j in range(0, Lk, block_size):
        s = q.float() @ k[:, :, j:j + block_size].float().transpose(-2, -1) / math.sqrt(D)
        if causal:
            s = s.masked_fill(torch.arange(j, j + s.shape[-1], device=q.device) > rows, -math.inf)
        m_new = torch.maximum(m, s.amax(-1, keepdim=True))
        p = torch.exp(s - m_new)
        alpha = torch.exp(m - m_new)
        l = alpha * l + p.sum(-1, keepdim=True)
        o = (alpha * o + p @ v[:, :, j:j + block_size].float()) / l
        m = m_new
    return o.to(q.dtype)
