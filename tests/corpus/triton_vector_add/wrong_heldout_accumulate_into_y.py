# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: "y += x" done by the kernel: the result is stored into y and y is returned
# mistake: output_is_input


@triton.jit
def axpy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    acc = tl.load(y_ptr + i, mask=m)
    acc += tl.load(x_ptr + i, mask=m)
    tl.store(y_ptr + i, acc, mask=m)


def add(x, y, BLOCK=256):
    n = y.numel()
    axpy_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    return y
