# kata: triton-softmax
# why: one row-stride argument, x's, serves the input and the output
# mistake: out_stride_of_x
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(inp, out, n_cols, row_stride, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    msk = c < n_cols
    x = tl.load(inp + r * row_stride + c, mask=msk, other=float("-inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out + r * row_stride + c, num / tl.sum(num, axis=0), mask=msk)


def softmax(x):
    rows, cols = x.shape
    result = torch.empty(rows, cols, dtype=x.dtype, device=x.device)
    softmax_kernel[(rows,)](x, result, cols, x.stride(0), BLOCK=triton.next_power_of_2(cols))
    return result
