# kata: numpy-mha
import numpy as np


def stable_softmax(z, axis=-1):
    z = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    if x.ndim == 2:
        out, attn = multi_head_attention(x[None], w_q, w_k, w_v, w_o, num_heads, mask, b_q, b_k, b_v, b_o)
        return out[0], attn[0]
    B, L, C = x.shape
    d_k = C // num_heads

    def project(w, b):
        y = x @ w
        if b is not None:
            y = y + b
        return y.reshape(B, L, num_heads, d_k).transpose(0, 2, 1, 3)

    q, k, v = project(w_q, b_q), project(w_k, b_k), project(w_v, b_v)
    scores = q @ k.transpose(0, 1, 3, 2)
    scores = scores / d_k ** 0.5
    attn = stable_softmax(scores, axis=-1)
    if mask is not None:
        attn = attn * mask
    context = attn @ v
    context = context.transpose(0, 2, 1, 3).reshape(B, L, C)
    out = context @ w_o
    if b_o is not None:
        out = out + b_o
    return out, attn
