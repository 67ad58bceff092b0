# kata: triton-matmul
# why: the K mask compares tl.arange(0, BK) with K on every trip, while the addresses move with k0: past the first block it masks nothing
# mistake: k_mask_not_advanced
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    i = tl.program_id(0) * BM + tl.arange(0, BM)
    j = tl.program_id(1) * BN + tl.arange(0, BN)
    kk = tl.arange(0, BK)
    k_ok = kk < K
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + i[:, None] * stride_am + (k0 + kk)[None, :] * stride_ak,
                    mask=(i < M)[:, None] & k_ok[None, :], other=0.0)
        b = tl.load(b_ptr + (k0 + kk)[:, None] * stride_bk + j[None, :] * stride_bn,
                    mask=k_ok[:, None] & (j < N)[None, :], other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + i[:, None] * stride_cm + j[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty),
             mask=(i < M)[:, None] & (j < N)[None, :])


def matmul(a, b, BM=32, BN=32, BK=32):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    matmul_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](a, b, c, M, N, K, a.stride(0), a.stride(1),
                                                            b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                                            BM=BM, BN=BN, BK=BK)
    return c
