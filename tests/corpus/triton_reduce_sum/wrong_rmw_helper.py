# kata: triton-reduce-sum
# why: a jit helper adds the block's sum by loading the total, adding and storing it back: programs race on it
# mistake: store_not_atomic
import torch
import triton
import triton.language as tl


@triton.jit
def _accumulate(ptr, value):
    current = tl.load(ptr)
    tl.store(ptr, current + value)


@triton.jit
def reduce_kernel(src, dst, size, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    vals = tl.load(src + idx, mask=idx < size, other=0.0).to(tl.float32)
    _accumulate(dst, tl.sum(vals, axis=0))


def total(x, BLOCK=64):
    size = x.numel()
    result = x.new_zeros(1, dtype=torch.float32)
    reduce_kernel[(triton.cdiv(size, BLOCK),)](x, result, size, BLOCK=BLOCK)
    return result
