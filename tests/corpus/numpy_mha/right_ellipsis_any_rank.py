# kata: numpy-mha
# why: right: rank-agnostic with ... indexing (no batch axis added), a float64 softmax cast back, additive -1e30 mask
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    *lead, L, C = x.shape
    d = C // num_heads

    def proj(w, b):
        y = np.matmul(x, w)
        return y if b is None else y + b

    def heads(t):
        return np.moveaxis(t.reshape(*lead, L, num_heads, d), -2, -3)

    q, k, v = heads(proj(w_q, b_q)), heads(proj(w_k, b_k)), heads(proj(w_v, b_v))
    s = (q @ np.swapaxes(k, -1, -2)).astype(np.float64) * d ** -0.5
    if mask is not None:
        s = s + np.where(mask, 0.0, -1e30)
    s -= s.max(-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(-1, keepdims=True)
    p = p.astype(x.dtype)
    ctx = np.moveaxis(p @ v, -3, -2).reshape(*lead, L, C)
    out = ctx @ w_o
    if b_o is not None:
        out = out + b_o
    return out, p
