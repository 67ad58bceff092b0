# kata: numpy-mha
# why: split helper reshapes straight to [b, heads, n, d], so heads mix tokens
# mistake: split_without_transpose
import math

import numpy as np


def split_heads(t, n_heads):
    b, n, c = t.shape
    return t.reshape(b, n_heads, n, c // n_heads)


def merge_heads(t):
    b, h, n, d = t.shape
    return t.swapaxes(1, 2).reshape(b, n, h * d)


def linear(t, w, b):
    return t @ w if b is None else t @ w + b


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    no_batch = x.ndim == 2
    xb = x.reshape(1, *x.shape) if no_batch else x
    q = split_heads(linear(xb, w_q, b_q), num_heads)
    k = split_heads(linear(xb, w_k, b_k), num_heads)
    v = split_heads(linear(xb, w_v, b_v), num_heads)
    logits = np.matmul(q, k.swapaxes(-1, -2)) / math.sqrt(q.shape[-1])
    if mask is not None:
        logits = np.where(mask, logits, np.finfo(logits.dtype).min)
    top = logits.max(axis=-1, keepdims=True)
    lse = top + np.log(np.exp(logits - top).sum(axis=-1, keepdims=True))
    weights = np.exp(logits - lse)
    out = linear(merge_heads(weights @ v), w_o, b_o)
    if no_batch:
        return out[0], weights[0]
    return out, weights
