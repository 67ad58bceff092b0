# kata: triton-online-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    row_max = 0.0
    row_sum = 0.0
    for off in range(0, n_cols, BLOCK):
        mask = off + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + off + cols, mask=mask, other=-float("inf")).to(tl.float32)
        block_max = tl.maximum(row_max, tl.max(x, axis=0))
        row_sum = row_sum * tl.exp(row_max - block_max) + tl.sum(tl.exp(x - block_max), axis=0)
        row_max = block_max
    for off in range(0, n_cols, BLOCK):
        mask = off + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + off + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + off + cols, tl.exp(x - row_max) / row_sum, mask=mask)


def softmax(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out
