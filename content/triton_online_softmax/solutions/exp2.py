# kata: triton-online-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    src = x_ptr + pid * stride_x
    dst = out_ptr + pid * stride_out
    r = tl.arange(0, BLOCK)
    m2 = float("-inf")
    s = 0.0
    for b in range(0, tl.cdiv(n_cols, BLOCK)):
        c = b * BLOCK + r
        t = tl.load(src + c, mask=c < n_cols, other=float("-inf")).to(tl.float32) * 1.4426950408889634
        m_new = tl.maximum(m2, tl.max(t, 0))
        s = s * tl.exp2(m2 - m_new) + tl.sum(tl.exp2(t - m_new), 0)
        m2 = m_new
    inv = 1.0 / s
    for b in range(0, tl.cdiv(n_cols, BLOCK)):
        c = b * BLOCK + r
        t = tl.load(src + c, mask=c < n_cols, other=float("-inf")).to(tl.float32) * 1.4426950408889634
        tl.store(dst + c, tl.exp2(t - m2) * inv, mask=c < n_cols)


def softmax(x, BLOCK=64):
    rows, cols = x.shape
    y = torch.empty_like(x)
    if x.stride(1) != 1:
        x = x.contiguous()
    softmax_kernel[(rows,)](x, y, cols, x.stride(0), y.stride(0), BLOCK=BLOCK)
    return y
