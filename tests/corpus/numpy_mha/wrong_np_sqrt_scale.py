# kata: numpy-mha
# why: the textbook / np.sqrt(head_dim): a NumPy float64 scalar turns float32 scores into float64
# mistake: float32_upcast
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    squeeze = False
    if x.ndim == 2:
        x = x[None]
        squeeze = True
    batch, seq, dim = x.shape
    head_dim = dim // num_heads
    Q = x @ w_q
    K = x @ w_k
    V = x @ w_v
    if b_q is not None:
        Q = Q + b_q
    if b_k is not None:
        K = K + b_k
    if b_v is not None:
        V = V + b_v
    Q = Q.reshape(batch, seq, num_heads, head_dim).transpose(0, 2, 1, 3)
    K = K.reshape(batch, seq, num_heads, head_dim).transpose(0, 2, 1, 3)
    V = V.reshape(batch, seq, num_heads, head_dim).transpose(0, 2, 1, 3)
    scores = Q @ K.transpose(0, 1, 3, 2) / np.sqrt(head_dim)
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    context = weights @ V
    context = context.transpose(0, 2, 1, 3).reshape(batch, seq, dim)
    out = context @ w_o
    if b_o is not None:
        out = out + b_o
    if squeeze:
        return out[0], weights[0]
    return out, weights
