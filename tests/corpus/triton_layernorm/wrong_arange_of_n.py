# kata: triton-layernorm
# why: the block is the row length itself, BLOCK=x.shape[-1]: tl.arange refuses a length that is not a power of two
# mistake: block_is_n
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, stride_x, stride_y, eps, N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + row * stride_x + cols).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    diff = x - mean
    var = tl.sum(diff * diff, axis=0) / N
    y = diff / tl.sqrt(var + eps) * tl.load(w_ptr + cols) + tl.load(b_ptr + cols)
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty))


def layernorm(x, weight, bias, eps=1e-5):
    y = torch.empty_like(x)
    layernorm_kernel[(x.shape[0],)](x, weight, bias, y, x.stride(0), y.stride(0), eps, N=x.shape[-1])
    return y
