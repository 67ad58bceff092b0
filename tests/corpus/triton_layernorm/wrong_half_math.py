# kata: triton-layernorm
# why: keeps the loaded dtype for the sums (no .to(tl.float32)): float16 statistics for float16 x
# mistake: half_statistics
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    inside = offs < N
    vals = tl.load(x_ptr + pid * stride_x + offs, mask=inside, other=0.0)
    mean = tl.sum(vals, axis=0) / N
    centred = tl.where(inside, vals - mean, 0.0)
    var = tl.sum(centred * centred, axis=0) / N
    scale = 1 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + offs, mask=inside)
    b = tl.load(b_ptr + offs, mask=inside)
    tl.store(y_ptr + pid * stride_y + offs, ((vals - mean) * scale * w + b).to(y_ptr.dtype.element_ty), mask=inside)


def layernorm(x, weight, bias, eps=1e-5):
    y = torch.empty_like(x)
    layernorm_kernel[(x.shape[0],)](x, weight, bias, y, x.shape[1], x.stride(0), y.stride(0), eps,
                                    BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
