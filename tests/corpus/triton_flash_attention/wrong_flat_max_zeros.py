# kata: triton-flash-attention
# why: contiguous copies; the running max starts from tl.zeros
# mistake: max_from_zero
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _fwd(Q, K, V, Out, S, scale, HEAD_STRIDE, ROW_STRIDE, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr,
         CAUSAL: tl.constexpr):
    start = tl.program_id(0) * BM
    head = tl.program_id(1)
    base = head * HEAD_STRIDE
    r = start + tl.arange(0, BM)
    c = tl.arange(0, D)
    q = tl.load(Q + base + r[:, None] * ROW_STRIDE + c[None, :], mask=r[:, None] < S, other=0.0)
    mx = tl.zeros([BM], dtype=tl.float32)
    den = tl.zeros([BM], dtype=tl.float32)
    num = tl.zeros([BM, D], dtype=tl.float32)
    for n in range(0, S, BN):
        kr = n + tl.arange(0, BN)
        kk = tl.load(K + base + kr[:, None] * ROW_STRIDE + c[None, :], mask=kr[:, None] < S, other=0.0)
        vv = tl.load(V + base + kr[:, None] * ROW_STRIDE + c[None, :], mask=kr[:, None] < S, other=0.0)
        sc = tl.dot(q, tl.trans(kk)) * scale
        if CAUSAL:
            sc = tl.where((kr[None, :] < S) & (kr[None, :] <= r[:, None]), sc, -float("inf"))
        else:
            sc = tl.where(kr[None, :] < S, sc, -float("inf"))
        new = tl.maximum(mx, tl.max(sc, axis=1))
        corr = tl.exp(mx - new)
        e = tl.exp(sc - new[:, None])
        den = den * corr + tl.sum(e, axis=1)
        num = num * corr[:, None] + tl.dot(e.to(vv.dtype), vv)
        mx = new
    tl.store(Out + base + r[:, None] * ROW_STRIDE + c[None, :], (num / den[:, None]).to(Out.dtype.element_ty),
             mask=r[:, None] < S)


def flash_attention(q, k, v, causal=False, BM=32, BN=32):
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    grid = lambda meta: (triton.cdiv(S, meta["BM"]), B * H)
    _fwd[grid](q, k, v, out, S, 1.0 / math.sqrt(D), S * D, D, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return out
