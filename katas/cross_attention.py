# kata: cross-attention
"""Multi-head cross-attention, as an nn.Module.

Write `class CrossAttention(nn.Module)` with
    __init__(self, embed_dim: int, num_heads: int)
    forward(self, x, context, mask=None) -> (out, attn_weights)

__init__ (as in `mha`):
    raise (assert, or ValueError) when embed_dim is not divisible by num_heads;
    head_dim = embed_dim // num_heads;
    four submodules with exactly these names, each nn.Linear(embed_dim, embed_dim) with bias:
        self.w_q, self.w_k, self.w_v, self.w_o

forward:
    x        [B, Lq, C]  the sequence that asks (queries)
    context  [B, Lk, C]  the sequence it reads from (keys and values); Lk may differ from Lq
    mask     None, or bool broadcastable to [B, H, Lq, Lk]: True = may attend.

    q = w_q(x); k = w_k(context); v = w_v(context); split into H heads of head_dim
    scores = q @ kᵀ / √head_dim               [B, H, Lq, Lk]
    attn_weights = softmax over the keys, masked keys getting weight 0 (no dropout)
    out = w_o(attn_weights @ v merged back to [B, Lq, C])

    A query whose keys are all masked must come out finite: zero or uniform weights are both
    accepted, NaN never.

Returns out [B, Lq, C] and attn_weights [B, H, Lq, Lk], in x's dtype and on x's device.
Gradients w.r.t. x, context and every parameter are checked too. Do not modify the inputs.
Banned: F.scaled_dot_product_attention, nn.MultiheadAttention.

Run `kata check cross-attention` to test; `kata hint cross-attention` for a nudge.
"""
import math

import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        raise NotImplementedError("write CrossAttention.__init__")

    def forward(self, x, context, mask=None):
        raise NotImplementedError("write CrossAttention.forward")
