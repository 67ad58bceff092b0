# kata: triton-reduce-sum
# why: the wrapper converts x to float32 first (a copy of the input), so the kernel never sees float16
import torch
import triton
import triton.language as tl


@triton.jit
def reduce_kernel(in_ptr, acc_ptr, numel, BLOCK_SIZE: tl.constexpr):
    block = tl.program_id(0)
    cols = block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    chunk = tl.load(in_ptr + cols, mask=cols < numel, other=0.0)
    tl.atomic_add(acc_ptr, tl.sum(chunk, axis=0))


def total(x, BLOCK=64):
    xf = x.float().contiguous()
    acc = torch.zeros(1, device=x.device)
    reduce_kernel[(triton.cdiv(xf.numel(), BLOCK),)](xf, acc, xf.numel(), BLOCK_SIZE=BLOCK)
    return acc
