# kata: flash-attention
# why: ordinary attention: the full [B, H, Lq, Lk] score matrix at once (right values, breaks the memory rule)
# mistake: full_score_matrix
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    Lq, Lk = q.shape[2], k.shape[2]
    acc = torch.float64 if q.dtype == torch.float64 else torch.float32  # half inputs accumulate in float32
    scores = (q.to(acc) @ k.to(acc).transpose(-2, -1)) / math.sqrt(q.shape[-1])
    if causal:
        mask = torch.ones(Lq, Lk, dtype=torch.bool, device=q.device).tril(Lk - Lq)
        scores = scores.masked_fill(~mask, float("-inf"))
    return (torch.softmax(scores, dim=-1) @ v.to(acc)).to(q.dtype)
