# kata: triton-online-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    n_blocks = n_cols // BLOCK
    m = -float("inf")
    l = 0.0
    for b in range(n_blocks):
        cols = b * BLOCK + offs
        x = tl.load(x_ptr + row * stride_x + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for b in range(n_blocks):
        cols = b * BLOCK + offs
        x = tl.load(x_ptr + row * stride_x + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + cols, tl.exp(x - m) / l, mask=cols < n_cols)


def softmax(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty_like(x)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out
