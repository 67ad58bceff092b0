# kata: triton-softmax
# why: log-sum-exp form without the shift: tl.exp(v) overflows for logits in the hundreds
# mistake: no_max
import torch
import triton
import triton.language as tl


@triton.jit
def _lse_softmax(src, dst, ncols, s_src, s_dst, W: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, W)
    live = c < ncols
    v = tl.load(src + r * s_src + c, mask=live, other=float("-inf")).to(tl.float32)
    lse = tl.log(tl.sum(tl.exp(v), axis=0))
    tl.store(dst + r * s_dst + c, tl.exp(v - lse), mask=live)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    _lse_softmax[(rows,)](x, y, cols, x.stride(0), y.stride(0), W=triton.next_power_of_2(cols))
    return y
