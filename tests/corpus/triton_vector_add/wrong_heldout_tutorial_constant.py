# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: BLOCK_SIZE = 1024 copied from the tutorial as a module constant; the BLOCK argument is never used
# mistake: fixed_block

BLOCK_SIZE = 1024


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    output = tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x, y, BLOCK=256):
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
