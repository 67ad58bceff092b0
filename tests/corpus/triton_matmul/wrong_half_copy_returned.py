# kata: triton-matmul
# why: the kernel writes a float32 buffer and the wrapper returns its half-precision copy for float16 inputs
# mistake: result_from_torch
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak, (rm < M)[:, None] & (rk < K)[None, :], 0.0)
        b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn, (rk < K)[:, None] & (rn < N)[None, :], 0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=(rm < M)[:, None] & (rn < N)[None, :])


def matmul(a, b, BM=32, BN=32, BK=32):
    M, K = a.shape
    N = b.shape[1]
    c32 = torch.zeros((M, N), dtype=torch.float32, device=a.device)
    matmul_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        a, b, c32, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c32.stride(0), c32.stride(1),
        BM=BM, BN=BN, BK=BK)
    return c32.half() if a.dtype == torch.float16 else c32
