# kata: triton-online-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    out_row = out_ptr + row * stride_out
    offs = tl.arange(0, BLOCK)

    row_max = -float("inf")
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        x = tl.load(x_row + cols, mask=cols < n_cols, other=-float("inf"))
        row_max = tl.maximum(row_max, tl.max(x.to(tl.float32), axis=0))

    denom = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        x = tl.load(x_row + cols, mask=cols < n_cols, other=-float("inf"))
        denom += tl.sum(tl.exp(x.to(tl.float32) - row_max), axis=0)

    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        x = tl.load(x_row + cols, mask=cols < n_cols, other=-float("inf"))
        tl.store(out_row + cols, tl.exp(x.to(tl.float32) - row_max) / denom, mask=cols < n_cols)


def softmax(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty_like(x, memory_format=torch.contiguous_format)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out
