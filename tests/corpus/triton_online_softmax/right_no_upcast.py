# kata: triton-online-softmax
# why: no .to(tl.float32) after the load: x - m with a float32 m is float32 already; x made contiguous in the wrapper
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    cols = tl.arange(0, BLOCK)
    m = -float("inf")
    l = 0.0
    for start in tl.range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + base + start + cols, mask=mask, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in tl.range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + base + start + cols, mask=mask, other=-float("inf"))
        tl.store(out_ptr + base + start + cols, tl.exp(x - m) / l, mask=mask)


def softmax(x, BLOCK=64):
    x = x.contiguous()
    out = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, out, x.shape[1], BLOCK=BLOCK)
    return out
