# kata: triton-softmax
# why: a module-level BLOCK of 256 that some rows outgrow
# mistake: fixed_block
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _row_softmax(x, y, n, sx, sy, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    k = tl.arange(0, BLOCK)
    v = tl.load(x + pid * sx + k, mask=k < n, other=-float("inf")).to(tl.float32)
    v = tl.exp(v - tl.max(v, 0))
    tl.store(y + pid * sy + k, v / tl.sum(v, 0), mask=k < n)


def softmax(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _row_softmax[(M,)](x, y, N, x.stride(0), y.stride(0), BLOCK=BLOCK)
    return y
