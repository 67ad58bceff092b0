# kata: triton-reduce-sum
# why: the atomics add into x.new_empty(1, ...), whose contents were never set to zero
# mistake: output_not_zeroed
import torch
import triton
import triton.language as tl


@triton.jit
def block_sum_kernel(x_ptr, total_ptr, n_elements, BLOCK: tl.constexpr):
    start = tl.program_id(axis=0) * BLOCK
    offsets = start + tl.arange(0, BLOCK)
    valid = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=valid)
    x = tl.where(valid, x.to(tl.float32), 0.0)
    tl.atomic_add(total_ptr, tl.sum(x, axis=0))


def total(x, BLOCK=64):
    n_elements = x.numel()
    result = x.new_empty(1, dtype=torch.float32)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK"]),)
    block_sum_kernel[grid](x, result, n_elements, BLOCK=BLOCK)
    return result
