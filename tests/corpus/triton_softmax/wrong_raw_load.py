# kata: triton-softmax
# why: the row is loaded whole with no mask at all; only the store is masked
# mistake: load_unmasked
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(X, Y, n, sx, sy, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    vals = tl.load(X + pid * sx + idx).to(tl.float32)
    vals = tl.where(idx < n, vals, float("-inf"))
    vals = tl.exp(vals - tl.max(vals, 0))
    total = tl.sum(vals, 0)
    tl.store(Y + pid * sy + idx, vals / total, mask=idx < n)


def softmax(x):
    m, n = x.shape
    y = torch.empty((m, n), device=x.device, dtype=x.dtype)
    kernel[(m,)](x, y, n, x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(n))
    return y
