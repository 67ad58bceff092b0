# kata: triton-reduce-sum
# why: each program starts at its program id instead of pid * BLOCK, so neighbouring blocks overlap
# mistake: offsets_without_block
import torch
import triton
import triton.language as tl


@triton.jit
def reduce_kernel(in_ptr, out_ptr, numel, BLOCK: tl.constexpr):
    base = tl.program_id(0)
    cols = base + tl.arange(0, BLOCK)
    keep = cols < numel
    v = tl.where(keep, tl.load(in_ptr + cols, mask=keep, other=0.0).to(tl.float32), 0.0)
    tl.atomic_add(out_ptr, tl.sum(v, axis=0))


def total(x, BLOCK=64):
    numel = x.numel()
    out = x.new_zeros((1,), dtype=torch.float32)
    reduce_kernel[(triton.cdiv(numel, BLOCK),)](x, out, numel, BLOCK=BLOCK)
    return out
