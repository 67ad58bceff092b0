# kata: triton-softmax
# why: the load is masked but the store writes all BLOCK lanes, past the end of each row
# mistake: store_unmasked
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_fwd(in_ptr, out_ptr, n_cols, in_stride, out_stride, BLOCK_SIZE: tl.constexpr):
    row_id = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK_SIZE)
    in_row = in_ptr + row_id * in_stride
    out_row = out_ptr + row_id * out_stride
    a = tl.load(in_row + offs, mask=offs < n_cols, other=-float("inf")).to(tl.float32)
    a_max = tl.max(a, axis=0)
    p = tl.exp(a - a_max)
    p = p / tl.sum(p, axis=0)
    tl.store(out_row + offs, p)


def softmax(x):
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    softmax_fwd[(n_rows,)](x, out, n_cols, x.stride(0), out.stride(0),
                           BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return out
