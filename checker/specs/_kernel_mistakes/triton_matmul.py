"""`triton-matmul`'s known mistakes: each a wrapper (and the kernel it launches) with one slip.

The right kernel and wrapper first (Triton's tutorial "Matrix Multiplication", 2-D grid); each mistake changes one
line of one of them, or one argument of the launch.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def _launch(kernel, a, b, c, BM, BN, BK, grid=None):
    M, K = a.shape
    N = b.shape[1]
    grid = grid or (triton.cdiv(M, BM), triton.cdiv(N, BN))
    kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                 BM=BM, BN=BN, BK=BK)
    return c


# ---------------------------------------------------------------- the masks


@triton.jit
def matmul_kernel_no_k_mask(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                            stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak, mask=rm[:, None] < M, other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn, mask=rn[None, :] < N, other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def no_k_mask(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel_no_k_mask, a, b, c, BM, BN, BK)


@triton.jit
def matmul_kernel_k_mask_fixed(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                               stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def k_mask_not_advanced(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel_k_mask_fixed, a, b, c, BM, BN, BK)


@triton.jit
def matmul_kernel_load_unmasked(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                                stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def load_unmasked(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel_load_unmasked, a, b, c, BM, BN, BK)


@triton.jit
def matmul_kernel_store_unmasked(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                                 stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty))


def store_unmasked(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel_store_unmasked, a, b, c, BM, BN, BK)


# ---------------------------------------------------------------- the K loop and the accumulator


@triton.jit
def matmul_kernel_k_floor(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                          stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K // BK):
        k0 = k * BK
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def k_tail_dropped(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel_k_floor, a, b, c, BM, BN, BK)


@triton.jit
def matmul_kernel_half_acc(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                           stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=c_ptr.dtype.element_ty)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, out_dtype=c_ptr.dtype.element_ty)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def half_accumulator(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel_half_acc, a, b, c, BM, BN, BK)


def bk_shrunk_to_k(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel, a, b, c, BM, BN, min(BK, triton.next_power_of_2(a.shape[1])))


def bk_eight(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel, a, b, c, BM, BN, 8)


def fixed_blocks(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel, a, b, c, 32, 32, 32, grid=(triton.cdiv(a.shape[0], BM), triton.cdiv(b.shape[1], BN)))


# ---------------------------------------------------------------- the wrapper: grid, strides, output


def grid_swapped(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _launch(matmul_kernel, a, b, c, BM, BN, BK, grid=(triton.cdiv(b.shape[1], BN), triton.cdiv(a.shape[0], BM)))


def b_strides_swapped(a, b, BM=32, BN=32, BK=32):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    matmul_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(1), b.stride(0), c.stride(0), c.stride(1),
        BM=BM, BN=BN, BK=BK)
    return c


def strides_from_shape(a, b, BM=32, BN=32, BK=32):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    matmul_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](a, b, c, M, N, K, K, 1, N, 1, N, 1, BM=BM, BN=BN, BK=BK)
    return c


def c_strides_of_a(a, b, BM=32, BN=32, BK=32):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    matmul_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), a.stride(0), a.stride(1),
        BM=BM, BN=BN, BK=BK)
    return c


def float32_output(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=torch.float32, device=a.device)
    return _launch(matmul_kernel, a, b, c, BM, BN, BK)


def cast_after_launch(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=torch.float32, device=a.device)
    return _launch(matmul_kernel, a, b, c, BM, BN, BK).to(a.dtype)


def no_device(a, b, BM=32, BN=32, BK=32):
    c = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype)
    return _launch(matmul_kernel, a, b, c, BM, BN, BK)
