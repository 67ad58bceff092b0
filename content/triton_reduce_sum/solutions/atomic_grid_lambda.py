# kata: triton-reduce-sum
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    block_sum = tl.sum(x.to(tl.float32), axis=0)
    tl.atomic_add(out_ptr, block_sum)


def total(x, BLOCK=64):
    n = x.numel()
    out = x.new_zeros(1, dtype=torch.float32)
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
    sum_kernel[grid](x, out, n, BLOCK=BLOCK)
    return out
