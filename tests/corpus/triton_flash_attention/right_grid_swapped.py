# kata: triton-flash-attention
# why: the grid is (B * H, S blocks), so the (b, h) pair is program id 0; the padding is zeroed in p with tl.where after the exp
import math

import torch
import triton
import triton.language as tl


@triton.jit
def flash_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
                     stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
                     stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
                     H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    bh = tl.program_id(0)
    b = bh // H
    h = bh % H
    offs_m = tl.program_id(1) * BM + tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd,
                mask=offs_m[:, None] < S, other=0.0).to(tl.float32)
    m_i = tl.full([BM], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        offs_n = start_n + tl.arange(0, BN)
        k = tl.load(k_ptr + b * stride_kb + h * stride_kh + offs_n[:, None] * stride_ks + offs_d[None, :] * stride_kd,
                    mask=offs_n[:, None] < S, other=0.0).to(tl.float32)
        v = tl.load(v_ptr + b * stride_vb + h * stride_vh + offs_n[:, None] * stride_vs + offs_d[None, :] * stride_vd,
                    mask=offs_n[:, None] < S, other=0.0).to(tl.float32)
        visible = offs_n[None, :] < S
        if CAUSAL:
            visible = visible & (offs_n[None, :] <= offs_m[:, None])
        s = tl.where(visible, tl.dot(q, tl.trans(k)) * sm_scale, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.where(visible, tl.exp(s - m_new[:, None]), 0.0)
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p, v)
        m_i = m_new
    tl.store(o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od,
             acc / l_i[:, None], mask=offs_m[:, None] < S)


def flash_attention(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    flash_fwd_kernel[(B * H, triton.cdiv(S, BM))](
        q, k, v, o, S, 1.0 / math.sqrt(D), *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o
