# kata: triton-online-softmax
# why: three passes that load every block whole and only then set the lanes past the row to -inf with tl.where
# mistake: load_unmasked
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
        x = tl.where(cols < n_cols, tl.load(x_row + cols).to(tl.float32), -float("inf"))
        row_max = tl.maximum(row_max, tl.max(x, axis=0))

    denom = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        x = tl.where(cols < n_cols, tl.load(x_row + cols).to(tl.float32), -float("inf"))
        denom += tl.sum(tl.exp(x - row_max), axis=0)

    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        x = tl.where(cols < n_cols, tl.load(x_row + cols).to(tl.float32), -float("inf"))
        tl.store(out_row + cols, tl.exp(x - row_max) / denom, mask=cols < n_cols)


def softmax(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty_like(x, memory_format=torch.contiguous_format)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out
