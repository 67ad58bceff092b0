# kata: attention
"""Scaled dot-product attention, as an nn.Module.

Write `class ScaledDotProductAttention(nn.Module)` with
    __init__(self, dropout_p: float = 0.0)
    forward(self, q, k, v, mask=None) -> (output, attn_weights)

Inputs (float32 unless a case says float64, float16 or bfloat16; all on the same device):
    q     [B, H, Lq, D]   queries
    k     [B, H, Lk, D]   keys      (Lk may differ from Lq)
    v     [B, H, Lk, Dv]  values
    mask  None, or a bool tensor broadcastable to [B, H, Lq, Lk] (e.g. [Lq, Lk], [B, 1, Lq, Lk]):
          True = the query may attend to that key, False = masked out.

Contract:
    scores       = q @ kᵀ / √D                     (D = q.size(-1); transpose the last two dims of k)
    masked keys  take no part: their weight is 0
    attn_weights = softmax(scores) over the last dim (the keys), then dropout
    output       = attn_weights @ v

    Dropout follows nn.Dropout: only in train mode (identity after .eval()), zeroes each weight
    with probability dropout_p and scales the survivors by 1 / (1 - dropout_p). It is applied to
    the weights *after* the softmax, and the weights you return are the ones after dropout.

    A query whose keys are all masked must come out finite (never NaN or inf, in float16 too):
    zero weights (PyTorch's fused-attention convention) or uniform weights over all keys (what a
    large finite negative fill gives) are both accepted.

Returns output [B, H, Lq, Dv] and attn_weights [B, H, Lq, Lk], in the dtype and on the device
of q. Do not modify the inputs. Large scores (|q·k| in the thousands) must not overflow.
Banned: F.scaled_dot_product_attention, nn.MultiheadAttention.

Run `kata check attention` to test; `kata hint attention` for a nudge.
"""
import math

import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        raise NotImplementedError("write ScaledDotProductAttention.forward")
