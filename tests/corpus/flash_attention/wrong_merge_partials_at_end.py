# kata: flash-attention
# why: keeps every block's partial output and log-sum-exp, then merges them at the end: exact, but [Lk/block, B, H, Lq, Dv] at once
# mistake: none
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    rows = torch.arange(Lq, device=q.device)[:, None] + Lk - Lq
    outs, lses = [], []
    for j in range(0, Lk, block_size):
        s = q.float() @ k[:, :, j:j + block_size].float().transpose(-2, -1) / math.sqrt(D)
        if causal:
            s = s.masked_fill(torch.arange(j, j + s.shape[-1], device=q.device) > rows, -math.inf)
        lse = torch.logsumexp(s, dim=-1, keepdim=True)
        outs.append(torch.exp(s - lse).nan_to_num(0.0) @ v[:, :, j:j + block_size].float())
        lses.append(lse)
    lse = torch.stack(lses)  # (n, B, H, Lq, 1)
    weights = torch.softmax(lse, dim=0).nan_to_num(0.0)
    return (weights * torch.stack(outs)).sum(0).to(q.dtype)
