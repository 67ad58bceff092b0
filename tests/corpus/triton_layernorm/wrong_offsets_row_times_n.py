# kata: triton-layernorm
# why: the kernel takes no strides and addresses row r at r * N in x too, as if x were contiguous
# mistake: row_stride_as_n
import torch
import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd(x_ptr, gamma_ptr, beta_ptr, out_ptr, N, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    valid = idx < N
    row = tl.load(x_ptr + r * N + idx, mask=valid, other=0.0).to(tl.float32)
    mu = tl.sum(row, axis=0) / N
    c = tl.where(valid, row - mu, 0.0)
    inv = 1.0 / tl.sqrt(tl.sum(c * c, axis=0) / N + eps)
    gamma = tl.load(gamma_ptr + idx, mask=valid)
    beta = tl.load(beta_ptr + idx, mask=valid)
    tl.store(out_ptr + r * N + idx, (c * inv * gamma + beta).to(out_ptr.dtype.element_ty), mask=valid)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    layer_norm_fwd[(M,)](x, weight, bias, out, N, eps, BLOCK=triton.next_power_of_2(N))
    return out
