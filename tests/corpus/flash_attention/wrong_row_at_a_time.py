# kata: flash-attention
# why: one query at a time with an exact softmax over its whole row of Lk scores: small for long prompts, but a full row per query at decode
# mistake: none
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    out = torch.empty(B, H, Lq, v.shape[-1], dtype=q.dtype, device=q.device)
    for i in range(Lq):
        end = Lk - Lq + i + 1 if causal else Lk
        s = (q[:, :, i:i + 1].float() @ k[:, :, :end].float().transpose(-2, -1)) / math.sqrt(D)
        out[:, :, i:i + 1] = (torch.softmax(s, dim=-1) @ v[:, :, :end].float()).to(q.dtype)
    return out
