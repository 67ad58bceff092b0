# kata: triton-flash-attention
import math

import torch
import triton
import triton.language as tl


@triton.jit
def attn_fwd(Q, K, V, O, seq_len, sm_scale,
             sqb, sqh, sqs, sqd, skb, skh, sks, skd, svb, svh, svs, svd, sob, soh, sos, sod,
             n_heads, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    h = tl.program_id(1)
    b = tl.program_id(2)
    i = tl.program_id(0) * BM + tl.arange(0, BM)
    d = tl.arange(0, D)
    q = tl.load(Q + b * sqb + h * sqh + i[:, None] * sqs + d[None, :] * sqd, mask=i[:, None] < seq_len, other=0.0)
    m = tl.full([BM], float("-inf"), tl.float32)
    l = tl.zeros([BM], tl.float32)
    o = tl.zeros([BM, D], tl.float32)  # kept normalised: always the softmax-weighted mean of the values seen
    for j0 in range(0, seq_len, BN):
        j = j0 + tl.arange(0, BN)
        k = tl.load(K + b * skb + h * skh + j[:, None] * sks + d[None, :] * skd, mask=j[:, None] < seq_len, other=0.0)
        v = tl.load(V + b * svb + h * svh + j[:, None] * svs + d[None, :] * svd, mask=j[:, None] < seq_len, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        keep = j[None, :] < seq_len
        if CAUSAL:
            keep = keep & (j[None, :] <= i[:, None])
        s = tl.where(keep, s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        l_old = l * tl.exp(m - m_new)
        l = l_old + tl.sum(p, axis=1)
        o = o * (l_old / l)[:, None] + tl.dot(p.to(v.dtype), v) / l[:, None]
        m = m_new
    tl.store(O + b * sob + h * soh + i[:, None] * sos + d[None, :] * sod, o.to(O.dtype.element_ty),
             mask=i[:, None] < seq_len)


def flash_attention(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    out = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), H, B)
    attn_fwd[grid](q, k, v, out, S, 1.0 / math.sqrt(D), *q.stride(), *k.stride(), *v.stride(), *out.stride(),
                   H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return out
