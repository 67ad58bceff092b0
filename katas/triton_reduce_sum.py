# kata: triton-reduce-sum
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    raise NotImplementedError("write sum_kernel")


def total(x, BLOCK=64):
    raise NotImplementedError("write total")
