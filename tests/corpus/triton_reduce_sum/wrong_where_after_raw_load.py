# kata: triton-reduce-sum
# why: the block is loaded without a mask and the lanes past n zeroed afterwards with tl.where: the load already read past x
# mistake: load_unmasked
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    raw = tl.load(x_ptr + offs)
    vals = tl.where(offs < n, raw.to(tl.float32), 0.0)
    tl.atomic_add(out_ptr, tl.sum(vals, axis=0))


def total(x, BLOCK=64):
    acc = torch.zeros(1, dtype=torch.float32, device=x.device)
    sum_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, acc, x.numel(), BLOCK=BLOCK)
    return acc
