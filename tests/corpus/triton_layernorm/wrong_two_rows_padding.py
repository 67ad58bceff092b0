# kata: triton-layernorm
# why: two rows per program whose centred values keep the padding lanes: each adds mean² to the variance
# mistake: padding_in_variance
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, stride_x, stride_y, eps,
                     ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / N
    diff = x - mean[:, None]
    var = tl.sum(diff * diff, axis=1) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=cols < N)
    b = tl.load(b_ptr + cols, mask=cols < N)
    y = diff * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = x.new_empty((M, N))
    layernorm_kernel[(triton.cdiv(M, 2),)](x, weight, bias, y, M, N, x.stride(0), y.stride(0), eps,
                                           ROWS=2, BLOCK=triton.next_power_of_2(N))
    return y
