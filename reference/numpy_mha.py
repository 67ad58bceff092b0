"""Multi-head self-attention forward in NumPy.

Vaswani et al. (2017), "Attention Is All You Need", §3.2.1-3.2.2:
    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V,
    MultiHead(X) = Concat(head_1, …, head_H) W^O,  head_h = Attention(X W_h^Q, X W_h^K, X W_h^V),
with the H heads' projections packed side by side into one [C, C] matrix each: head h owns columns
h·d … (h+1)·d - 1 (d = C / H). Weights in NumPy's (in, out) layout, Q = X @ W_q + b_q (torch's
`F.multi_head_attention_forward` stores W_qᵀ). The softmax subtracts each row's max first, so exp never
overflows; masked keys (mask False) get -inf before it and weight 0 after it.
"""
import math

import numpy as np


def _project(x, w, b):
    y = x @ w  # [..., L, C]
    return y if b is None else y + b


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    """x: [B, L, C] or [L, C], float32 or float64; w_*: [C, C] (in, out); b_*: [C] or None;
    mask: bool, broadcastable to [B, H, L, L] ([H, L, L] unbatched), True = may attend.
    Returns out (x's shape) and attn [B, H, L, L] ([H, L, L] unbatched), per head, in x's dtype."""
    unbatched = x.ndim == 2
    if unbatched:
        x = x[None]  # [1, L, C]
    B, L, C = x.shape
    H = num_heads
    assert C % H == 0, f"num_heads {H} does not divide C = {C}"
    d = C // H

    def heads(t):  # [B, L, C] -> [B, H, L, d]: head h is columns h·d … (h+1)·d - 1
        return t.reshape(B, L, H, d).transpose(0, 2, 1, 3)

    q, k, v = (heads(_project(x, w, b)) for w, b in ((w_q, b_q), (w_k, b_k), (w_v, b_v)))
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d)  # [B, H, L, L]; a Python float keeps float32
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)  # every query keeps at least one key
    scores = scores - scores.max(axis=-1, keepdims=True)  # stable: every exponent <= 0
    e = np.exp(scores)
    attn = (e / e.sum(axis=-1, keepdims=True)).astype(x.dtype, copy=False)  # [B, H, L, L]
    heads_out = (attn @ v).transpose(0, 2, 1, 3).reshape(B, L, C)  # [B, L, H, d] -> [B, L, C]
    out = _project(heads_out, w_o, b_o)  # [B, L, C]
    if unbatched:
        return out[0], attn[0]
    return out, attn
