# kata: triton-online-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    m_lane = tl.full([BLOCK], -float("inf"), tl.float32)
    l_lane = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        idx = start + lanes
        x = tl.load(x_ptr + row * stride_x + idx, mask=idx < n_cols, other=-float("inf")).to(tl.float32)
        m_next = tl.maximum(m_lane, x)
        # a lane that has only seen padding keeps m = -inf; -inf - (-inf) would be NaN
        safe = tl.where(m_next == -float("inf"), 0.0, m_next)
        l_lane = l_lane * tl.exp(m_lane - safe) + tl.exp(x - safe)
        m_lane = m_next
    m = tl.max(m_lane, axis=0)
    l = tl.sum(l_lane * tl.exp(m_lane - m), axis=0)
    for start in range(0, n_cols, BLOCK):
        idx = start + lanes
        x = tl.load(x_ptr + row * stride_x + idx, mask=idx < n_cols, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + idx, tl.exp(x - m) / l, mask=idx < n_cols)


def softmax(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out
