# expect: around
# why: the result goes into x's own storage with out's row stride: a column slice's gaps are overwritten.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * stride_out + cols, y.to(out_ptr.dtype.element_ty), mask=mask)
    gap = mask & (n_cols + cols < stride_x) & (row + 1 < tl.num_programs(0))
    tl.store(x_ptr + row * stride_x + n_cols + cols, y.to(out_ptr.dtype.element_ty), mask=gap)


def softmax(x):
    M, N = x.shape
    out = torch.empty_like(x)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(N))
    return out
