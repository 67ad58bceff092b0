# kata: triton-layernorm
# why: one loop accumulating the sum and the sum of squares, var = E[x²] − mean²: cancels at a mean of 100
# mistake: one_pass_moments
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    s1 = tl.zeros([BLOCK], dtype=tl.float32)
    s2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=0.0).to(tl.float32)
        s1 += x
        s2 += x * x
    mean = tl.sum(s1, axis=0) / N
    var = tl.sum(s2, axis=0) / N - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * tl.load(w_ptr + cols, mask=mask) + tl.load(b_ptr + cols, mask=mask)
        tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=64)
    return y
