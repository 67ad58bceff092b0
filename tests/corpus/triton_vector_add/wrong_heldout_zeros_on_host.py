# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: the output made with torch.zeros(size, dtype=...) and no device
# mistake: no_device


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, size, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < size
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def add(x, y, BLOCK=256):
    size = x.shape[0]
    out = torch.zeros(size, dtype=x.dtype)
    add_kernel[(triton.cdiv(size, BLOCK),)](x, y, out, size, BLOCK=BLOCK)
    return out
