# kata: triton-layernorm
# why: one pass of shifted moments: subtracting the row's first value first keeps E[d²] − E[d]² free of cancellation
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    base = x_ptr + row * stride_x
    shift = tl.load(base).to(tl.float32)
    d = tl.where(mask, tl.load(base + cols, mask=mask, other=0.0).to(tl.float32) - shift, 0.0)
    m1 = tl.sum(d, axis=0) / N
    m2 = tl.sum(d * d, axis=0) / N
    var = tl.maximum(m2 - m1 * m1, 0.0)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    y = (d - m1) / tl.sqrt(var + eps) * w + b
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty(M, N, dtype=x.dtype, device=x.device)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=triton.next_power_of_2(N))
    return y
