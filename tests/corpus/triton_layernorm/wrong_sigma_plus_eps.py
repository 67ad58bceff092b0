# kata: triton-layernorm
# why: divides by the standard deviation plus eps, (x - mean) / (sqrt(var) + eps): eps outside the root
# mistake: eps_outside_root
import torch
import triton
import triton.language as tl


@triton.jit
def norm_rows(src, gain, shift, dst, n, eps, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0)
    j = tl.arange(0, BLOCK)
    keep = j < n
    v = tl.load(src + i * n + j, mask=keep, other=0.0).to(tl.float32)
    avg = tl.sum(v, axis=0) / n
    dev = tl.where(keep, v - avg, 0.0)
    std = tl.sqrt(tl.sum(dev * dev, axis=0) / n)
    g = tl.load(gain + j, mask=keep).to(tl.float32)
    s = tl.load(shift + j, mask=keep).to(tl.float32)
    tl.store(dst + i * n + j, (dev / (std + eps) * g + s).to(dst.dtype.element_ty), mask=keep)


def layernorm(x, weight, bias, eps=1e-5):
    x = x.contiguous()
    out = torch.empty_like(x)
    rows, n = x.shape
    norm_rows[lambda meta: (rows,)](x, weight, bias, out, n, eps, BLOCK=triton.next_power_of_2(n))
    return out
