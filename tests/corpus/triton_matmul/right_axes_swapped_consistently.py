# kata: triton-matmul
# why: axis 0 of the grid walks the column blocks and axis 1 the row blocks, and the kernel reads them that way: right, whatever the order
import torch
import triton
import triton.language as tl


@triton.jit
def mm_tile(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    n_blk = tl.program_id(0)
    m_blk = tl.program_id(1)
    i = m_blk * BM + tl.arange(0, BM)
    j = n_blk * BN + tl.arange(0, BN)
    i_ok = i < M
    j_ok = j < N
    total = tl.zeros([BM, BN], tl.float32)
    k = 0
    while k < K:
        p = k + tl.arange(0, BK)
        p_ok = p < K
        x = tl.load(A + i[:, None] * sam + p[None, :] * sak, mask=i_ok[:, None] & p_ok[None, :], other=0.)
        y = tl.load(B + p[:, None] * sbk + j[None, :] * sbn, mask=p_ok[:, None] & j_ok[None, :], other=0.)
        total += tl.dot(x, y)
        k += BK
    tl.store(C + i[:, None] * scm + j[None, :] * scn, total.to(C.dtype.element_ty), mask=i_ok[:, None] & j_ok[None, :])


def matmul(a, b, BM=32, BN=32, BK=32):
    M, K = a.shape
    _, N = b.shape
    out = a.new_empty((M, N))
    mm_tile[(triton.cdiv(N, BN), triton.cdiv(M, BM))](
        a, b, out, M, N, K, *a.stride(), *b.stride(), *out.stride(), BM=BM, BN=BN, BK=BK)
    return out
