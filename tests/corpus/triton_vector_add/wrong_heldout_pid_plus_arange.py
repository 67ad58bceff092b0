# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: the block's start taken as the program id itself, with a named start variable
# mistake: offsets_without_block


@triton.jit
def kernel_add(x_ptr, y_ptr, z_ptr, count, BLOCK: tl.constexpr):
    start = tl.program_id(axis=0)
    cols = start + tl.arange(0, BLOCK)
    inside = cols < count
    z = tl.load(x_ptr + cols, mask=inside) + tl.load(y_ptr + cols, mask=inside)
    tl.store(z_ptr + cols, z, mask=inside)


def add(x, y, BLOCK=256):
    count = x.numel()
    z = torch.empty_like(y)
    kernel_add[(triton.cdiv(count, BLOCK),)](x_ptr=x, y_ptr=y, z_ptr=z, count=count, BLOCK=BLOCK)
    return z
