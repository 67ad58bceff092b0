# kata: numpy-mha
# why: returns the attention map averaged over heads, as nn.MultiheadAttention does by default
# mistake: weights_averaged
import math

import numpy as np


def _stable_softmax(a, axis):
    a = a - np.max(a, axis=axis, keepdims=True)
    np.exp(a, out=a)
    return a / np.sum(a, axis=axis, keepdims=True)


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    unbatched = x.ndim == 2
    xs = x[None] if unbatched else x
    n_b, n_t, n_c = xs.shape
    n_h = num_heads
    n_d = n_c // n_h
    proj = {}
    for name, w, b in (("q", w_q, b_q), ("k", w_k, b_k), ("v", w_v, b_v)):
        t = np.einsum("btc,ce->bte", xs, w)
        if b is not None:
            t = t + b
        proj[name] = t.reshape(n_b, n_t, n_h, n_d)
    logits = np.einsum("bqhd,bkhd->bhqk", proj["q"], proj["k"]) / math.sqrt(n_d)
    if mask is not None:
        logits = np.where(mask, logits, -np.inf)
    probs = _stable_softmax(logits, axis=-1)
    mixed = np.einsum("bhqk,bkhd->bqhd", probs, proj["v"]).reshape(n_b, n_t, n_c)
    y = np.einsum("btc,ce->bte", mixed, w_o)
    if b_o is not None:
        y = y + b_o
    avg = probs.mean(axis=1)
    if unbatched:
        return y[0], avg[0]
    return y, avg
