# kata: triton-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    block_start = tl.program_id(0) * BLOCK
    offsets = block_start + tl.arange(0, BLOCK)
    in_bounds = offsets < n
    a = tl.load(x_ptr + offsets, mask=in_bounds, other=0.0)
    b = tl.load(y_ptr + offsets, mask=in_bounds, other=0.0)
    tl.store(out_ptr + offsets, a + b)


def add(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    grid = (triton.cdiv(n, BLOCK),)
    add_kernel[grid](x, y, out, n, BLOCK=BLOCK)
    return out
