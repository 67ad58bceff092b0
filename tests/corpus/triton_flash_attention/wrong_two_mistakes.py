# kata: triton-flash-attention
# why: exp2 kernel with the causal test keys < rows and b and h swapped (two mistakes at once)
# mistake: none
import math

import torch
import triton
import triton.language as tl


@triton.jit
def flash_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, qk_scale,
                     stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
                     stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
                     H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_bh = tl.program_id(1)
    off_h = pid_bh // H
    off_b = pid_bh % H
    rows = pid_m * BM + tl.arange(0, BM)
    dims = tl.arange(0, D)
    q_base = q_ptr + off_b * stride_qb + off_h * stride_qh
    k_base = k_ptr + off_b * stride_kb + off_h * stride_kh
    v_base = v_ptr + off_b * stride_vb + off_h * stride_vh
    q = tl.load(q_base + rows[:, None] * stride_qs + dims[None, :] * stride_qd, mask=rows[:, None] < S, other=0.0)
    m = tl.full([BM], float("-inf"), tl.float32)  # base-2 units: log2(e) is folded into qk_scale
    l = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    hi = S
    if CAUSAL:
        hi = tl.minimum(S, (pid_m + 1) * BM)  # key blocks past the diagonal hold no visible key
    for n0 in range(0, hi, BN):
        keys = n0 + tl.arange(0, BN)
        kt = tl.load(k_base + keys[None, :] * stride_ks + dims[:, None] * stride_kd, mask=keys[None, :] < S, other=0.0)
        t = tl.dot(q, kt) * qk_scale
        ok = keys[None, :] < S
        if CAUSAL:
            ok = ok & (keys[None, :] < rows[:, None])
        t = tl.where(ok, t, float("-inf"))
        m_new = tl.maximum(m, tl.max(t, 1))
        scale = tl.exp2(m - m_new)
        p = tl.exp2(t - m_new[:, None])
        l = l * scale + tl.sum(p, 1)
        vb = tl.load(v_base + keys[:, None] * stride_vs + dims[None, :] * stride_vd, mask=keys[:, None] < S, other=0.0)
        acc = acc * scale[:, None] + tl.dot(p.to(vb.dtype), vb)
        m = m_new
    out = acc / l[:, None]
    o_base = o_ptr + off_b * stride_ob + off_h * stride_oh
    tl.store(o_base + rows[:, None] * stride_os + dims[None, :] * stride_od, out.to(o_ptr.dtype.element_ty),
             mask=rows[:, None] < S)


def flash_attention(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty_like(q)
    qk_scale = 1.4426950408889634 / math.sqrt(D)  # log2(e) / sqrt(D): exp(x) = exp2(x * log2(e))
    flash_fwd_kernel[(triton.cdiv(S, BM), B * H)](
        q, k, v, o, S, qk_scale,
        q.stride(0), q.stride(1), q.stride(2), q.stride(3), k.stride(0), k.stride(1), k.stride(2), k.stride(3),
        v.stride(0), v.stride(1), v.stride(2), v.stride(3), o.stride(0), o.stride(1), o.stride(2), o.stride(3),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o
