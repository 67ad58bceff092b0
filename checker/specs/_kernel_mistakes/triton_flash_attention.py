"""`triton-flash-attention`'s known mistakes: each a wrapper (and the kernel it launches) with one slip.

The right kernel and wrapper first: a program owns BM queries of one (b, h) (grid (cdiv(S, BM), B·H)), streams the
keys and values in blocks of BN with the online softmax (running max m from −inf, running sum l and accumulator acc
both rescaled by exp(m_old − m_new), padded and future keys −inf), float32 statistics and accumulator, acc / l once
at the end. Each mistake changes one line of one of them.
"""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def flash_fwd_kernel(
        q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
        stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
        stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
        H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full([BM], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        k_ptrs = k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd
        k = tl.load(k_ptrs, mask=cols[:, None] < S, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = cols[None, :] < S
        if CAUSAL:
            valid = valid & (cols[None, :] <= offs_m[:, None])
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v_ptrs = v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd
        v = tl.load(v_ptrs, mask=cols[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def right(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


# ---------------------------------------------------------------- the online softmax


@triton.jit
def flash_fwd_kernel_acc_not_rescaled(
        q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
        stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
        stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
        H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full([BM], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        k_ptrs = k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd
        k = tl.load(k_ptrs, mask=cols[:, None] < S, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = cols[None, :] < S
        if CAUSAL:
            valid = valid & (cols[None, :] <= offs_m[:, None])
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v_ptrs = v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd
        v = tl.load(v_ptrs, mask=cols[:, None] < S, other=0.0)
        acc = acc + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def acc_not_rescaled(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel_acc_not_rescaled[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


@triton.jit
def flash_fwd_kernel_sum_not_rescaled(
        q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
        stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
        stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
        H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full([BM], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        k_ptrs = k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd
        k = tl.load(k_ptrs, mask=cols[:, None] < S, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = cols[None, :] < S
        if CAUSAL:
            valid = valid & (cols[None, :] <= offs_m[:, None])
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i + tl.sum(p, axis=1)
        v_ptrs = v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd
        v = tl.load(v_ptrs, mask=cols[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def sum_not_rescaled(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel_sum_not_rescaled[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


@triton.jit
def flash_fwd_kernel_max_from_zero(
        q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
        stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
        stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
        H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.zeros([BM], dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        k_ptrs = k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd
        k = tl.load(k_ptrs, mask=cols[:, None] < S, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = cols[None, :] < S
        if CAUSAL:
            valid = valid & (cols[None, :] <= offs_m[:, None])
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v_ptrs = v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd
        v = tl.load(v_ptrs, mask=cols[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def max_from_zero(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel_max_from_zero[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


@triton.jit
def flash_fwd_kernel_no_max(
        q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
        stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
        stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
        H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.zeros([BM], dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        k_ptrs = k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd
        k = tl.load(k_ptrs, mask=cols[:, None] < S, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = cols[None, :] < S
        if CAUSAL:
            valid = valid & (cols[None, :] <= offs_m[:, None])
        s = tl.where(valid, s, -float("inf"))
        m_new = m_i
        p = tl.exp(s)
        l_i = l_i + tl.sum(p, axis=1)
        v_ptrs = v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd
        v = tl.load(v_ptrs, mask=cols[:, None] < S, other=0.0)
        acc = acc + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def no_max(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel_no_max[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


# ---------------------------------------------------------------- the masks and the program ids


@triton.jit
def flash_fwd_kernel_padded_keys_zero(
        q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
        stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
        stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
        H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full([BM], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        k_ptrs = k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd
        k = tl.load(k_ptrs, mask=cols[:, None] < S, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        if CAUSAL:
            s = tl.where(cols[None, :] <= offs_m[:, None], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v_ptrs = v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd
        v = tl.load(v_ptrs, mask=cols[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def padded_keys_zero(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel_padded_keys_zero[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


@triton.jit
def flash_fwd_kernel_causal_strict(
        q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
        stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
        stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
        H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full([BM], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        k_ptrs = k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd
        k = tl.load(k_ptrs, mask=cols[:, None] < S, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = cols[None, :] < S
        if CAUSAL:
            valid = valid & (cols[None, :] < offs_m[:, None])
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v_ptrs = v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd
        v = tl.load(v_ptrs, mask=cols[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def causal_strict(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel_causal_strict[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


@triton.jit
def flash_fwd_kernel_kv_unmasked(
        q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
        stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
        stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
        H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full([BM], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        k_ptrs = k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd
        k = tl.load(k_ptrs)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = cols[None, :] < S
        if CAUSAL:
            valid = valid & (cols[None, :] <= offs_m[:, None])
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v_ptrs = v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd
        v = tl.load(v_ptrs)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def kv_unmasked(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel_kv_unmasked[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


@triton.jit
def flash_fwd_kernel_b_h_swapped(
        q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale,
        stride_qb, stride_qh, stride_qs, stride_qd, stride_kb, stride_kh, stride_ks, stride_kd,
        stride_vb, stride_vh, stride_vs, stride_vd, stride_ob, stride_oh, stride_os, stride_od,
        H, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    h = bh // H
    b = bh % H
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full([BM], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, S, BN):
        cols = start_n + offs_n
        k_ptrs = k_ptr + b * stride_kb + h * stride_kh + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd
        k = tl.load(k_ptrs, mask=cols[:, None] < S, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = cols[None, :] < S
        if CAUSAL:
            valid = valid & (cols[None, :] <= offs_m[:, None])
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v_ptrs = v_ptr + b * stride_vb + h * stride_vh + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd
        v = tl.load(v_ptrs, mask=cols[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def b_h_swapped(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel_b_h_swapped[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


# ---------------------------------------------------------------- the wrapper


def strides_from_shape(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        H * S * D, S * D, D, 1, H * S * D, S * D, D, 1, H * S * D, S * D, D, 1, *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


def scale_one_over_d(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0 / D,
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


def no_scale(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0,
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


def whole_key_row(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=triton.next_power_of_2(S), D=D, CAUSAL=causal)
    return o


def grid_one_head(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    grid = (triton.cdiv(S, BM), B)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


def float32_output(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=torch.float32, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o


def cast_after_launch(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=torch.float32, device=q.device)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o.to(q.dtype)


def no_device(q, k, v, causal=False, BM=32, BN=32):
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype)
    grid = (triton.cdiv(S, BM), B * H)
    flash_fwd_kernel[grid](
        q, k, v, o, S, 1.0 / math.sqrt(D),
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, BM=BM, BN=BN, D=D, CAUSAL=causal)
    return o
