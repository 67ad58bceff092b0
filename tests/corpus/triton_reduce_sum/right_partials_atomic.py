# kata: triton-reduce-sum
# why: block sums stored to their own slots, then a second launch of one program per 64 partials adds them atomically
import torch
import triton
import triton.language as tl


@triton.jit
def partial_sums(x_ptr, part_ptr, n, BLOCK: tl.constexpr):
    p = tl.program_id(0)
    i = p * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(x_ptr + i, mask=i < n, other=0.0).to(tl.float32), axis=0)
    tl.store(part_ptr + p, s)


@triton.jit
def combine(part_ptr, out_ptr, count, CHUNK: tl.constexpr):
    j = tl.program_id(0) * CHUNK + tl.arange(0, CHUNK)
    tl.atomic_add(out_ptr, tl.sum(tl.load(part_ptr + j, mask=j < count, other=0.0), axis=0))


def total(x, BLOCK=64):
    n = x.numel()
    blocks = triton.cdiv(n, BLOCK)
    parts = torch.empty(blocks, dtype=torch.float32, device=x.device)
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    partial_sums[(blocks,)](x, parts, n, BLOCK=BLOCK)
    combine[(triton.cdiv(blocks, BLOCK),)](parts, out, blocks, CHUNK=BLOCK)
    return out
