# kata: triton-reduce-sum
# why: the total is allocated as zeros_like(x[:1]), so it takes x's dtype: float16 for a float16 x
# mistake: total_in_input_dtype
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    values = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr, tl.sum(values, axis=0))


def total(x, BLOCK=64):
    out = torch.zeros_like(x[:1])
    sum_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, out, x.numel(), BLOCK_SIZE=BLOCK)
    return out
