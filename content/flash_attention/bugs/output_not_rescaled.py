# kata: flash-attention
import math

import torch


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    B, H, Lq, D = q.shape
    Lk = k.shape[-2]
    work = torch.float64 if q.dtype == torch.float64 else torch.float32
    qs = q.to(work) * (1.0 / math.sqrt(D))

    # online softmax state, one entry per query row
    m = torch.full((B, H, Lq, 1), -math.inf, dtype=work, device=q.device)  # running max
    l = torch.zeros(B, H, Lq, 1, dtype=work, device=q.device)  # running sum of exp
    acc = torch.zeros(B, H, Lq, v.shape[-1], dtype=work, device=q.device)  # unnormalised output

    q_pos = torch.arange(Lk - Lq, Lk, device=q.device).unsqueeze(1)  # bottom-right aligned
    for start in range(0, Lk, block_size):
        end = min(start + block_size, Lk)
        kb = k[..., start:end, :].to(work)
        vb = v[..., start:end, :].to(work)
        s = qs @ kb.transpose(-1, -2)
        if causal:
            k_pos = torch.arange(start, end, device=q.device).unsqueeze(0)
            s = torch.where(k_pos <= q_pos, s, -math.inf)

        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
        p = torch.exp(s - m_new)
        l = l * torch.exp(m - m_new) + p.sum(dim=-1, keepdim=True)
        acc = acc + p @ vb
        m = m_new

    return (acc / l).to(q.dtype)
