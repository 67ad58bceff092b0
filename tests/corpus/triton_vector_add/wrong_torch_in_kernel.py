# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: torch.add called inside the @triton.jit kernel: refused before running (banned, and a kernel cannot call torch)
# mistake: none


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    s = torch.maximum(tl.load(x_ptr + offsets, mask=mask), tl.load(y_ptr + offsets, mask=mask))
    tl.store(out_ptr + offsets, s, mask=mask)


def add(x, y, BLOCK=256):
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, y, out, x.numel(), BLOCK=BLOCK)
    return out
