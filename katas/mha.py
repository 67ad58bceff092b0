# kata: mha
"""Multi-head self-attention, as an nn.Module.

Write `class MultiHeadAttention(nn.Module)` with
    __init__(self, embed_dim: int, num_heads: int)
    forward(self, x, mask=None) -> (out, attn_weights)

__init__:
    raise (assert, or ValueError) when embed_dim is not divisible by num_heads;
    head_dim = embed_dim // num_heads;
    four submodules with exactly these names, each nn.Linear(embed_dim, embed_dim) with bias:
        self.w_q, self.w_k, self.w_v (projections), self.w_o (output projection)
    (the checker loads its own weights into them, so the names are the contract).

forward:
    x     [B, L, C] (C = embed_dim; float32 unless a case says otherwise)
    mask  None, or bool broadcastable to [B, H, L, L] (e.g. [L, L], [B, 1, L, L], [B, H, L, L]):
          True = may attend, False = masked out.

    q, k, v = w_q(x), w_k(x), w_v(x), each split into H heads of head_dim: [B, H, L, head_dim]
    scores  = q @ kᵀ / √head_dim          (head_dim, not embed_dim)
    attn_weights = softmax over the keys, masked keys getting weight 0 (no dropout)
    heads   = attn_weights @ v, merged back to [B, L, C] (head h in columns h*hd:(h+1)*hd)
    out     = w_o(heads)

    A query whose keys are all masked must come out finite: zero or uniform weights are both
    accepted, NaN never.

Returns out [B, L, C] and attn_weights [B, H, L, L], in x's dtype and on x's device.
Gradients w.r.t. x and every parameter are checked too. Do not modify the inputs.
Banned: F.scaled_dot_product_attention, nn.MultiheadAttention.

Run `kata check mha` to test; `kata hint mha` for a nudge.
"""
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        raise NotImplementedError("write MultiHeadAttention.__init__")

    def forward(self, x, mask=None):
        raise NotImplementedError("write MultiHeadAttention.forward")
