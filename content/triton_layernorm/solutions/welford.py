# kata: triton-layernorm
import torch
import triton
import triton.language as tl


@triton.jit
def welford_layernorm_kernel(X, W, B, Y, N, stride_xm, stride_ym, eps, BLOCK: tl.constexpr):
    m = tl.program_id(0)
    X += m * stride_xm
    Y += m * stride_ym

    # one read for both statistics: each lane keeps Welford's (count, mean, M2) over its columns
    count = tl.zeros([BLOCK], dtype=tl.float32)
    mu = tl.zeros([BLOCK], dtype=tl.float32)
    m2 = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        valid = idx < N
        v = tl.load(X + idx, mask=valid, other=0.0).to(tl.float32)
        new_count = count + valid.to(tl.float32)
        delta = v - mu
        mu = tl.where(valid, mu + delta / tl.maximum(new_count, 1.0), mu)
        m2 = tl.where(valid, m2 + delta * (v - mu), m2)
        count = new_count

    # Chan et al.: merge the lanes' triples into the row's mean and M2
    mean = tl.sum(count * mu, axis=0) / N
    spread = tl.where(count > 0, mu - mean, 0.0)
    var = (tl.sum(m2, axis=0) + tl.sum(count * spread * spread, axis=0)) / N
    inv_std = 1.0 / tl.sqrt(var + eps)

    for off in range(0, N, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        valid = idx < N
        v = tl.load(X + idx, mask=valid, other=0.0).to(tl.float32)
        gamma = tl.load(W + idx, mask=valid, other=0.0).to(tl.float32)
        beta = tl.load(B + idx, mask=valid, other=0.0).to(tl.float32)
        tl.store(Y + idx, ((v - mean) * inv_std * gamma + beta).to(Y.dtype.element_ty), mask=valid)


def layernorm(x, weight, bias, eps=1e-5):
    out = torch.empty_like(x)
    rows, cols = x.shape
    block = min(128, triton.next_power_of_2(cols))
    welford_layernorm_kernel[(rows,)](x, weight, bias, out, cols, x.stride(0), out.stride(0), eps, BLOCK=block)
    return out
