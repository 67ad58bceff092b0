# kata: triton-layernorm
# why: the kernel writes into a float32 buffer (torch.empty without dtype=) and the wrapper returns it cast to x's dtype
# mistake: result_from_torch
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
    var = tl.sum(diff * diff, axis=0) / N
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask).to(tl.float32)
    tl.store(y_ptr + row * stride_y + cols, diff / tl.sqrt(var + eps) * w + b, mask=mask)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    out = torch.empty(M, N, device=x.device)
    layernorm_kernel[(M,)](x, weight, bias, out, N, x.stride(0), out.stride(0), eps, BLOCK=triton.next_power_of_2(N))
    return out.to(x.dtype)
