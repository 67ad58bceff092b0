# kata: triton-layernorm
# why: the kernel adds a literal 1e-5 and the wrapper never passes its eps
# mistake: eps_hardcoded
import torch
import triton
import triton.language as tl


@triton.jit
def _fwd(X, W, B, Y, stride_x, stride_y, N, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride_x
    Y += row * stride_y
    offs = tl.arange(0, BLOCK_N)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=0.).to(tl.float32)
    mean = tl.sum(x, 0) / N
    xc = tl.where(m, x - mean, 0.)
    rstd = 1 / tl.sqrt(tl.sum(xc * xc, 0) / N + 1e-5)
    w = tl.load(W + offs, mask=m).to(tl.float32)
    b = tl.load(B + offs, mask=m).to(tl.float32)
    tl.store(Y + offs, (xc * rstd * w + b).to(Y.dtype.element_ty), mask=m)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    _fwd[(M,)](x, weight, bias, y, x.stride(0), y.stride(0), N, BLOCK_N=triton.next_power_of_2(N))
    return y
