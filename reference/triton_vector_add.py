"""Vector add, the first kernel of Triton's tutorials (triton-lang.org, "Vector Addition", 01-vector-add.py).

The learner writes the kernel and its wrapper; this is what they compute, in torch: out = x + y, computed in float64
from the inputs and rounded once to their dtype (for float32 and float16 that is exactly the correctly rounded sum
each lane computes). The checker's parent judges with it and never imports triton; BLOCK does not change the result:
it is the launch's tiling, which the checker's guards hold the learner's kernel to.

The kernel and wrapper this reference stands for (the tutorial's; one program per block of BLOCK elements):

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offsets = pid * BLOCK + tl.arange(0, BLOCK)   # this program's block
        mask = offsets < n                            # the last block is usually partial
        x = tl.load(x_ptr + offsets, mask=mask)
        y = tl.load(y_ptr + offsets, mask=mask)
        tl.store(out_ptr + offsets, x + y, mask=mask)

    def add(x, y, BLOCK=256):
        out = torch.empty_like(x)                     # x's shape, dtype and device
        n = x.numel()
        add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
        return out
"""
import torch


def add(x, y, BLOCK=256):
    assert x.dim() == 1 and x.shape == y.shape and x.dtype == y.dtype, "x, y: [n], one dtype"
    assert BLOCK >= 1 and BLOCK & (BLOCK - 1) == 0, "BLOCK is a power of two"
    out = x.double() + y.double()  # [n], exact: the sum of two float32 (or float16) values fits float64
    return out.to(x.dtype)  # [n], rounded once
