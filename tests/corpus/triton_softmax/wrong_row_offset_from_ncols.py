# kata: triton-softmax
# why: the kernel takes no strides and finds each row at row * n_cols, in x and in the output alike
# mistake: row_stride_is_n
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    ok = cols < n_cols
    start = row * n_cols
    x = tl.load(x_ptr + start + cols, mask=ok, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + start + cols, e / tl.sum(e, axis=0), mask=ok)


def softmax(x):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel[(M,)](x, out, N, BLOCK=triton.next_power_of_2(N))
    return out
