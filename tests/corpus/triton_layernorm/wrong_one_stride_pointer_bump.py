# kata: triton-layernorm
# why: tutorial-style pointer bumps that move Y by x's row stride as well as X
# mistake: output_with_input_stride
import torch
import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd(X, Y, W, B, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xbar = tl.where(mask, x - mean, 0.)
    var = tl.sum(xbar * xbar, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    tl.store(Y + cols, xbar * rstd * w + b, mask=mask)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    _layer_norm_fwd[(M,)](x, y, weight, bias, x.stride(0), N, eps, BLOCK_SIZE=triton.next_power_of_2(N))
    return y
