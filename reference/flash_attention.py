"""Attention computed block by block with an online softmax, never holding the score matrix.

Dao et al., "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness" (2022),
Alg. 1, in the form of FlashAttention-2 (Dao 2023, Alg. 1): for each block of keys, update the
running row max m, rescale the running sum l and the unnormalised output O by exp(m_old − m_new),
add the block's exp(S − m_new) and its product with V; divide O by l once at the end.
Causal masking is bottom-right aligned: query i sits at position Lk − Lq + i (FlashAttention ≥ 2.1).
"""
import math

import torch


def flash_attention(q, k, v, block_size: int = 64, causal: bool = False):
    """q (B, H, Lq, D), k (B, H, Lk, D), v (B, H, Lk, Dv) -> softmax(q kᵀ / √D) v, (B, H, Lq, Dv)."""
    B, H, Lq, D = q.shape
    Lk, Dv = k.shape[2], v.shape[-1]
    assert block_size >= 1, f"block_size must be at least 1, got {block_size}"
    assert not causal or Lq <= Lk, f"causal attention needs Lq <= Lk, got Lq = {Lq}, Lk = {Lk}"
    acc_dtype = torch.promote_types(q.dtype, torch.float32)  # half inputs accumulate in float32
    scale = 1.0 / math.sqrt(D)
    qs = q.to(acc_dtype) * scale  # (B, H, Lq, D)
    m = torch.full((B, H, Lq, 1), -math.inf, dtype=acc_dtype, device=q.device)  # running row max
    l = torch.zeros((B, H, Lq, 1), dtype=acc_dtype, device=q.device)  # running sum of exp(s - m)
    o = torch.zeros((B, H, Lq, Dv), dtype=acc_dtype, device=q.device)  # running unnormalised output
    rows = torch.arange(Lq, device=q.device).unsqueeze(-1) + (Lk - Lq)  # (Lq, 1): absolute query positions
    for start in range(0, Lk, block_size):
        kb = k[:, :, start:start + block_size].to(acc_dtype)  # (B, H, bk, D)
        vb = v[:, :, start:start + block_size].to(acc_dtype)  # (B, H, bk, Dv)
        s = qs @ kb.transpose(-2, -1)  # (B, H, Lq, bk): this block's scores only
        if causal:
            cols = torch.arange(start, start + kb.shape[2], device=q.device)  # (bk,)
            s = s.masked_fill(cols > rows, -math.inf)  # key 0 is always visible, so m is finite after block 0
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))  # (B, H, Lq, 1)
        alpha = torch.exp(m - m_new)  # rescales what was summed under the old max
        p = torch.exp(s - m_new)  # (B, H, Lq, bk)
        l = alpha * l + p.sum(dim=-1, keepdim=True)
        o = alpha * o + p @ vb  # (B, H, Lq, Dv)
        m = m_new
    return (o / l).to(q.dtype)  # normalised once, at the end
