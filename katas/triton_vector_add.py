# kata: triton-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    raise NotImplementedError("write add_kernel")


def add(x, y, BLOCK=256):
    raise NotImplementedError("write add")
