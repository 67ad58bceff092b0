# kata: numpy-mha
import math

import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    single = x.ndim == 2
    if single:
        x = x[np.newaxis]
        if mask is not None and mask.ndim == 3:
            mask = mask[np.newaxis]
    B, L, C = x.shape
    H = num_heads
    d = C // H
    W = np.stack([w_q, w_k, w_v]).reshape(3, C, H, d)
    qkv = np.einsum("blc,nchd->nblhd", x, W)
    for n, b in enumerate((b_q, b_k, b_v)):
        if b is not None:
            qkv[n] += b.reshape(H, d)
    q, k, v = qkv
    s = np.einsum("bqhd,bkhd->bhqk", q, k) * (1.0 / math.sqrt(d))
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    s = s - np.max(s, axis=-1, keepdims=True)
    p = np.exp(s)
    p /= np.sum(p, axis=-1, keepdims=True)
    ctx = np.einsum("bhqk,bkhd->bqhd", p, v)
    out = np.einsum("bqhd,hdc->bqc", ctx, w_o.reshape(H, d, C))
    if b_o is not None:
        out = out + b_o
    if single:
        return out[0], p[0]
    return out, p
