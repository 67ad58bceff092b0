# kata: triton-matmul
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    i = tl.program_id(0) * BM + tl.arange(0, BM)
    j = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for start in range(0, K, BK):
        k = start + tl.arange(0, BK)
        x = tl.load(a_ptr + i[:, None] * stride_am + k[None, :] * stride_ak,
                    mask=(i[:, None] < M) & (k[None, :] < K), other=0.0)
        y = tl.load(b_ptr + k[:, None] * stride_bk + j[None, :] * stride_bn,
                    mask=(k[:, None] < K) & (j[None, :] < N), other=0.0)
        acc += tl.dot(x, y)
    tl.store(c_ptr + i[:, None] * stride_cm + j[None, :] * stride_cn, acc.to(c_ptr.dtype.element_ty),
             mask=(i[:, None] < M) & (j[None, :] < N))


def matmul(a, b, BM=32, BN=32, BK=32):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    stride_am, stride_ak = a.stride()
    stride_bn, stride_bk = b.stride()
    stride_cm, stride_cn = c.stride()
    matmul_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        a, b, c, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
        BM=BM, BN=BN, BK=BK)
    return c
