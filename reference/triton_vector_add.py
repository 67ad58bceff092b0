"""Vector add, the first kernel of Triton's tutorials (triton-lang.org, "Vector Addition", 01-vector-add.py).

The kernel there: program p handles the elements p·BLOCK … p·BLOCK + BLOCK − 1 of a grid of cdiv(n, BLOCK)
programs, its loads and its store masked to offsets < n. The learner writes that kernel and its wrapper; this
reference is what they must compute, in torch: out = x + y, computed in float64 from the inputs and rounded once
to their dtype (for float32 and float16 that is exactly the correctly rounded sum each lane computes). BLOCK does
not change the result: it is the launch's tiling, which the checker's guards hold the learner's kernel to.
"""
import torch


def add(x, y, BLOCK=256):
    assert x.dim() == 1 and x.shape == y.shape and x.dtype == y.dtype, "x, y: [n], one dtype"
    assert BLOCK >= 1 and BLOCK & (BLOCK - 1) == 0, "BLOCK is a power of two"
    out = x.double() + y.double()  # [n], exact: the sum of two float32 (or float16) values fits float64
    return out.to(x.dtype)  # [n], rounded once
