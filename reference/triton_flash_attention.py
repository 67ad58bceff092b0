"""Self-attention forward, the function the learner's FlashAttention kernel computes (the checker's reference, in
torch).

Dao et al., "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness" (2022), Alg. 1, and
FlashAttention-2 (Dao 2023), Alg. 1: a program holds a block of queries, streams the keys and values in blocks,
keeps a running row max m, a running sum l and an unnormalised output, each rescaled by exp(m_old − m_new), and
divides by l once at the end. That computes exactly o = softmax(q·kᵀ/√D [+ causal mask])·v (Vaswani et al. 2017,
eq. 1): tiling changes how the kernel reads k and v, not the result. So the reference is the formula, in float64
from the (already rounded) inputs and rounded once to q's dtype. Causal is top-left with Lq = Lk = S: query i sees
the keys j ≤ i (every row sees at least itself). The kernel is the learner's; the parent that judges never imports
triton.
"""
import math

import torch


def flash_attention(q, k, v, causal=False, BM=32, BN=32):
    """q, k, v (B, H, S, D), float32 or float16, any strides -> (B, H, S, D) attention output in q's dtype.
    BM and BN (the kernel's query and key blocks) do not change the result."""
    assert q.dim() == 4 and q.shape == k.shape == v.shape, f"expected q, k, v [B, H, S, D], got {tuple(q.shape)}"
    S, D = q.shape[2], q.shape[3]
    s = q.double() @ k.double().transpose(-2, -1) / math.sqrt(D)  # (B, H, S, S)
    if causal:
        future = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)  # (S, S): key j > query i
        s = s.masked_fill(future, -math.inf)
    p = torch.softmax(s, dim=-1)  # (B, H, S, S), float64
    return (p @ v.double()).to(q.dtype)  # (B, H, S, D)
