# kata: flash-attention
import math

import torch


def flash_attention(q, k, v, block_size=64, causal=False):
    B, H, Lq, D = q.shape
    Lk = k.shape[2]
    acc = torch.float64 if q.dtype == torch.float64 else torch.float32
    O = torch.zeros(B, H, Lq, v.shape[-1], dtype=acc, device=q.device)
    l = torch.zeros(B, H, Lq, 1, dtype=acc, device=q.device)
    m = torch.full((B, H, Lq, 1), -float("inf"), dtype=acc, device=q.device)
    causal_mask = None
    if causal:  # a full boolean mask holds no scores: allowed
        causal_mask = torch.ones(Lq, Lk, dtype=torch.bool, device=q.device).tril(diagonal=Lk - Lq)
    for j in range(0, Lk, block_size):
        Kj = k[..., j:j + block_size, :].to(acc)
        Vj = v[..., j:j + block_size, :].to(acc)
        S = torch.einsum("bhqd,bhkd->bhqk", q.to(acc), Kj) / math.sqrt(D)
        if causal_mask is not None:
            S = S.masked_fill(~causal_mask[:, j:j + block_size], -float("inf"))
        m_tilde = S.amax(dim=-1, keepdim=True)
        P = torch.exp(S - m_tilde).nan_to_num(0.0)  # a block with no visible key for a row: 0, not NaN
        l_tilde = P.sum(dim=-1, keepdim=True)
        m_new = torch.maximum(m, m_tilde)
        l_new = torch.exp(m - m_new) * l + torch.exp(m_tilde - m_new) * l_tilde
        O = (l * torch.exp(m - m_new) * O + torch.exp(m_tilde - m_new) * (P @ Vj)) / l_new
        l, m = l_new, m_new
    return O.to(q.dtype)
