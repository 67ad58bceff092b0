# kata: numpy-mha
# why: per-head loop that zeroes the masked weights after the softmax
# mistake: mask_after_softmax
import numpy as np


def multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads, mask=None, b_q=None, b_k=None, b_v=None, b_o=None):
    was_2d = x.ndim == 2
    X = np.expand_dims(x, 0) if was_2d else x
    B, T, C = X.shape
    hs = C // num_heads
    q = X @ w_q if b_q is None else X @ w_q + b_q
    k = X @ w_k if b_k is None else X @ w_k + b_k
    v = X @ w_v if b_v is None else X @ w_v + b_v
    m = None if mask is None else np.broadcast_to(mask, (B, num_heads, T, T))
    head_outputs, head_weights = [], []
    for h in range(num_heads):
        qh = q[:, :, h * hs:(h + 1) * hs]
        kh = k[:, :, h * hs:(h + 1) * hs]
        vh = v[:, :, h * hs:(h + 1) * hs]
        att = qh @ np.transpose(kh, (0, 2, 1)) * (1.0 / np.sqrt(float(hs))).item()
        att = np.exp(att - att.max(-1, keepdims=True))
        att = att / att.sum(-1, keepdims=True)
        if m is not None:
            att = att * m[:, h]
        head_weights.append(att)
        head_outputs.append(att @ vh)
    merged = np.concatenate(head_outputs, axis=-1)
    out = merged @ w_o
    if b_o is not None:
        out += b_o
    attn = np.stack(head_weights, axis=1)
    if was_2d:
        return out[0], attn[0]
    return out, attn
