# kata: triton-matmul
# why: the output's dtype chosen in the wrapper and passed as a constexpr flag; a nested @jit helper loads each masked tile
import torch
import triton
import triton.language as tl


@triton.jit
def load_tile(base, rows, cols, n_rows, n_cols, s_row, s_col):
    return tl.load(base + rows[:, None] * s_row + cols[None, :] * s_col,
                   mask=(rows[:, None] < n_rows) & (cols[None, :] < n_cols), other=0.0)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, HALF: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in tl.range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = load_tile(a_ptr, rm, rk, M, K, stride_am, stride_ak)
        b = load_tile(b_ptr, rk, rn, K, N, stride_bk, stride_bn)
        acc += tl.dot(a, b, out_dtype=tl.float32)
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    c_mask = (rm[:, None] < M) & (rn[None, :] < N)
    if HALF:
        tl.store(c_ptrs, acc.to(tl.float16), mask=c_mask)
    else:
        tl.store(c_ptrs, acc, mask=c_mask)


def matmul(a, b, BM=32, BN=32, BK=32):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty_strided((M, N), (N, 1), dtype=a.dtype, device=a.device)
    matmul_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        BM=BM, BN=BN, BK=BK, HALF=a.dtype == torch.float16)
    return c
