# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: the loads read whole blocks unmasked; only the store (through tl.where) looks at the bound
# mistake: load_unmasked


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    xs = tl.load(x_ptr + offs)
    ys = tl.load(y_ptr + offs)
    s = tl.where(offs < n, xs + ys, 0.0)
    tl.store(out_ptr + offs, s, mask=offs < n)


def add(x, y, BLOCK=256):
    n = x.numel()
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK)
    return out
