# kata: triton-reduce-sum
# why: tl.where zeroes the masked lanes (the load has no other=), the output from new_zeros, the block start in int64
import torch
import triton
import triton.language as tl


@triton.jit
def _block_sum(src, dst, length, BLOCK: tl.constexpr):
    start = tl.program_id(axis=0).to(tl.int64) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    inside = idx < length
    vals = tl.load(src + idx, mask=inside)
    vals = tl.where(inside, vals.to(tl.float32), 0.0)
    tl.atomic_add(dst, tl.sum(vals))


def total(x, BLOCK=64):
    length = x.shape[0]
    result = x.new_zeros((1,), dtype=torch.float32)
    _block_sum[(triton.cdiv(length, BLOCK),)](x, result, length, BLOCK)
    return result
