# kata: triton-softmax
# why: an in-place kernel: one pointer, each row read and overwritten, x returned
# mistake: output_is_input
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_inplace(ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    row = ptr + tl.program_id(0) * row_stride
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(row + cols, mask=mask, other=-float("inf")).to(tl.float32)
    v = tl.exp(v - tl.max(v, axis=0))
    tl.store(row + cols, v / tl.sum(v, axis=0), mask=mask)


def softmax(x):
    softmax_inplace[(x.shape[0],)](x, x.shape[1], x.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    return x
