# kata: triton-flash-attention
import math

import torch
import triton
import triton.language as tl


@triton.jit
def flash_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
                     stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
                     stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
                     H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_bh = tl.program_id(1)
    b = pid_bh // H
    h = pid_bh % H

    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)

    q = tl.load(q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd,
                mask=offs_m[:, None] < S, other=0.0)

    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)

    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        kv_mask = cols[:, None] < S
        k = tl.load(k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd,
                    mask=kv_mask, other=0.0)
        v = tl.load(v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd,
                    mask=kv_mask, other=0.0)

        qk = tl.dot(q, tl.trans(k)) * sm_scale
        qk = tl.where(cols[None, :] < S, qk, float("-inf"))
        if CAUSAL:
            qk = tl.where(cols[None, :] < offs_m[:, None], qk, float("-inf"))

        m_ij = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.exp(qk - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None]
        acc += tl.dot(p.to(v.dtype), v)
        m_i = m_ij

    acc = acc / l_i[:, None]
    tl.store(o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od,
             acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def flash_attention(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty_like(q)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        q.stride(0), q.stride(1), q.stride(2), q.stride(3),
        k.stride(0), k.stride(1), k.stride(2), k.stride(3),
        v.stride(0), v.stride(1), v.stride(2), v.stride(3),
        o.stride(0), o.stride(1), o.stride(2), o.stride(3),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o
