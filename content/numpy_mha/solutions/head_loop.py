# kata: numpy-mha
import numpy as np


def softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    ez = np.exp(z)
    return ez / ez.sum(axis=-1, keepdims=True)


def attend_one(x, w_q, w_k, w_v, w_o, h, mask, biases):
    L, C = x.shape
    hd = C // h
    Q, K, V = x @ w_q, x @ w_k, x @ w_v
    if biases[0] is not None:
        Q = Q + biases[0]
    if biases[1] is not None:
        K = K + biases[1]
    if biases[2] is not None:
        V = V + biases[2]
    outs, weights = [], []
    for i in range(h):
        cols = slice(i * hd, (i + 1) * hd)
        S = Q[:, cols] @ K[:, cols].T / hd ** 0.5
        if mask is not None:
            S = np.where(mask[i], S, -1e9)
        A = softmax(S)
        weights.append(A)
        outs.append(A @ V[:, cols])
    y = np.concatenate(outs, axis=1) @ w_o
    if biases[3] is not None:
        y = y + biases[3]
    return y, np.stack(weights)


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    biases = (b_q, b_k, b_v, b_o)
    L = x.shape[-2]
    if x.ndim == 2:
        m = None if mask is None else np.broadcast_to(mask, (num_heads, L, L))
        return attend_one(x, w_q, w_k, w_v, w_o, num_heads, m, biases)
    B = x.shape[0]
    m = None if mask is None else np.broadcast_to(mask, (B, num_heads, L, L))
    results = [attend_one(x[b], w_q, w_k, w_v, w_o, num_heads, None if m is None else m[b], biases) for b in range(B)]
    return np.stack([r[0] for r in results]), np.stack([r[1] for r in results])
