# kata: triton-matmul
# why: the wrapper picks the accumulator's dtype from the inputs' and the dots accumulate in it: float16 for float16 inputs
# mistake: half_accumulator
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(a_ptr, b_ptr, c_ptr, M, N, K, sa0, sa1, sb0, sb1, sc0, sc1,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, HALF: tl.constexpr):
    m = tl.program_id(0) * BM + tl.arange(0, BM)
    n = tl.program_id(1) * BN + tl.arange(0, BN)
    if HALF:
        acc = tl.zeros((BM, BN), dtype=tl.float16)
    else:
        acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        k = k0 + tl.arange(0, BK)
        x = tl.load(a_ptr + m[:, None] * sa0 + k[None, :] * sa1, mask=(m[:, None] < M) & (k[None, :] < K), other=0.0)
        y = tl.load(b_ptr + k[:, None] * sb0 + n[None, :] * sb1, mask=(k[:, None] < K) & (n[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc, out_dtype=acc.dtype)
    tl.store(c_ptr + m[:, None] * sc0 + n[None, :] * sc1, acc, mask=(m[:, None] < M) & (n[None, :] < N))


def matmul(a, b, BM=32, BN=32, BK=32):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty(M, N, dtype=a.dtype, device=a.device)
    kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(),
                                                     BM=BM, BN=BN, BK=BK, HALF=a.dtype == torch.float16)
    return c
