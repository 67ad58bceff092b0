"""Tiled matrix multiplication, the function the learner's Triton kernel computes (the checker's reference, in torch).

Triton's tutorial "Matrix Multiplication" (triton-lang.org, getting-started/tutorials/03-matrix-multiplication):
each program owns a BM×BN tile of c, walks K in steps of BK, multiplies the BM×BK tile of a by the BK×BN tile of b
with `tl.dot` into a float32 accumulator, and stores the tile once, cast to c's dtype. Whatever the tiling, the
result is c[m, n] = Σ_k a[m, k]·b[k, n]; here it is computed in float64 from the (already rounded) inputs and rounded
once to a's dtype. The blocks are the launch's tiling, which the checker's guards hold the learner's kernel to; they
do not change the result.
"""
import torch


def matmul(a, b, BM=32, BN=32, BK=32):
    """a (M, K), b (K, N), one dtype (float32 or float16), any strides -> c (M, N), a new tensor in a's dtype."""
    assert a.dim() == 2 and b.dim() == 2, f"expected a [M, K] and b [K, N], got {tuple(a.shape)}, {tuple(b.shape)}"
    assert a.shape[1] == b.shape[0], f"inner dimensions differ: a {tuple(a.shape)}, b {tuple(b.shape)}"
    assert a.dtype == b.dtype, f"one dtype: a {a.dtype}, b {b.dtype}"
    assert BK >= 16, f"BK = {BK}: a tl.dot needs an inner dimension of at least 16"
    c = a.double() @ b.double()  # (M, N): 53-bit products of ≤ 24-bit inputs, sums of ≤ 512 terms
    return c.to(a.dtype)  # (M, N), rounded once
