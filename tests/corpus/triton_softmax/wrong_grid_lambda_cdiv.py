# kata: triton-softmax
# why: the grid is copied from a vector-add launch: cdiv(rows, BLOCK) programs, one for a whole batch of rows
# mistake: grid_too_small
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    j = tl.arange(0, BLOCK)
    valid = j < n_cols
    v = tl.load(x_ptr + i * stride_x + j, mask=valid, other=-float("inf")).to(tl.float32)
    v = tl.exp(v - tl.max(v, axis=0))
    tl.store(out_ptr + i * stride_out + j, v / tl.sum(v, axis=0), mask=valid)


def softmax(x):
    M, N = x.shape
    out = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK"]),)
    softmax_kernel[grid](x, out, N, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(N))
    return out
