# kata: triton-online-softmax
# why: a persistent grid whose write loop stores whole blocks, the lanes past the row included
# mistake: store_unmasked
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    first = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    for row in range(first, n_rows, step):
        m = -float("inf")
        l = 0.0
        for start in range(0, n_cols, BLOCK):
            mask = start + cols < n_cols
            x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
            m_new = tl.maximum(m, tl.max(x, axis=0))
            l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
            m = m_new
        for start in range(0, n_cols, BLOCK):
            mask = start + cols < n_cols
            x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
            tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x - m) / l)


def softmax(x, BLOCK=64):
    n_rows, n_cols = x.shape
    out = x.new_empty((n_rows, n_cols))
    softmax_kernel[(n_rows,)](x, out, n_rows, n_cols, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out
