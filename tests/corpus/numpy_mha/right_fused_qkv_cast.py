# kata: numpy-mha
# why: right: one fused [C, 3C] projection, np.sqrt scale with an explicit cast back to x's dtype, q scaled before the product
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    dt = x.dtype
    X = x if x.ndim == 3 else x[None, :, :]
    n, T, D = X.shape
    hd = D // num_heads
    W = np.concatenate([w_q, w_k, w_v], axis=1)
    zero = np.zeros(D, dtype=dt)
    bias = np.concatenate([zero if b is None else b for b in (b_q, b_k, b_v)])
    qkv = X @ W + bias
    qkv = qkv.reshape(n, T, 3, num_heads, hd).transpose(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]
    q = (q / np.sqrt(hd)).astype(dt)
    att = q @ np.swapaxes(k, -1, -2)
    if mask is not None:
        att = np.where(np.asarray(mask, dtype=bool), att, -np.inf)
    att = np.exp(att - np.amax(att, axis=-1, keepdims=True))
    att = att / np.sum(att, axis=-1, keepdims=True)
    y = (att @ v).transpose(0, 2, 1, 3).reshape(n, T, D) @ w_o
    if b_o is not None:
        y = y + b_o
    y = y.astype(dt)
    att = att.astype(dt)
    return (y[0], att[0]) if x.ndim == 2 else (y, att)
