# kata: triton-layernorm
# why: a loop over column blocks whose variance divides by N - 1 (torch.var's default), not N
# mistake: unbiased_variance
import torch
import triton
import triton.language as tl


@triton.jit
def ln_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, sx, sy, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, N, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + r * sx + c, mask=c < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    sq = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, N, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + r * sx + c, mask=c < N, other=0.0).to(tl.float32)
        d = tl.where(c < N, v - mean, 0.0)
        sq += d * d
    var = tl.sum(sq, axis=0) / (N - 1)
    rstd = 1.0 / tl.sqrt(var + eps)
    for c0 in range(0, N, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        m = c < N
        v = tl.load(x_ptr + r * sx + c, mask=m, other=0.0).to(tl.float32)
        out = (v - mean) * rstd * tl.load(w_ptr + c, mask=m) + tl.load(b_ptr + c, mask=m)
        tl.store(y_ptr + r * sy + c, out.to(y_ptr.dtype.element_ty), mask=m)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty_like(x)
    ln_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=128)
    return y
