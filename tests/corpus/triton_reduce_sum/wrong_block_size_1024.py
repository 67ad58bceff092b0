# kata: triton-reduce-sum
# why: BLOCK_SIZE = 1024 as in Triton's vector-add tutorial, in the grid and the launch, whatever BLOCK is passed
# mistake: fixed_block
import torch
import triton
import triton.language as tl

BLOCK_SIZE = 1024


@triton.jit
def sum_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offsets, mask=offsets < n_elements, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x.to(tl.float32), axis=0))


def total(x, BLOCK=64):
    n_elements = x.numel()
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    sum_kernel[grid](x, out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
