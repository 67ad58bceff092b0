# expect: pass
# why: two rows per program with a row guard `(cols < n_cols) & (row < n_rows)`: the interpreter builds the
# block & scalar mask as int32 data and refuses it ("mask has unsupported dtype"); a GPU accepts it, so must the checker.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    for i in range(2):
        row = tl.program_id(0) * 2 + i
        cols = tl.arange(0, BLOCK)
        mask = (cols < n_cols) & (row < n_rows)
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        y = num / tl.sum(num, axis=0)
        tl.store(out_ptr + row * stride_out + cols, y, mask=mask)


def softmax(x):
    M, N = x.shape
    out = torch.empty_like(x)
    softmax_kernel[(triton.cdiv(M, 2),)](x, out, M, N, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(N))
    return out
