# kata: triton-layernorm
# why: masks x and y but loads weight and bias over the whole block, past their N elements
# mistake: weight_bias_unmasked
import torch
import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd(X, Y, W, B, stride_x, stride_y, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride_x
    Y += row * stride_y
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xbar = tl.where(mask, x - mean, 0.)
    rstd = 1 / tl.sqrt(tl.sum(xbar * xbar, axis=0) / N + eps)
    w = tl.load(W + cols)
    b = tl.load(B + cols)
    tl.store(Y + cols, xbar * rstd * w + b, mask=mask)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    _layer_norm_fwd[(M,)](x, y, weight, bias, x.stride(0), y.stride(0), N, eps, BLOCK_SIZE=triton.next_power_of_2(N))
    return y
