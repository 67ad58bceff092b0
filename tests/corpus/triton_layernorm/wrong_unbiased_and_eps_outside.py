# kata: triton-layernorm
# why: two slips at once, the unbiased variance and eps outside the root: no single known mistake explains it
# mistake: none
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    diff = tl.where(mask, x - mean, 0.0)
    std = tl.sqrt(tl.sum(diff * diff, axis=0) / (N - 1))
    y = diff / (std + eps) * tl.load(w_ptr + cols, mask=mask) + tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty_like(x)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=triton.next_power_of_2(N))
    return y
