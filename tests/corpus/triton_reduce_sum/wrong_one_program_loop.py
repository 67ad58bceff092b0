# kata: triton-reduce-sum
# why: one program walks every block with a scalar float32 running sum and stores it once: right, but one program
# mistake: single_program
import torch
import triton
import triton.language as tl


@triton.jit
def reduce_all(src, dst, length, BLOCK: tl.constexpr):
    running = 0.0
    for b in range(tl.cdiv(length, BLOCK)):
        idx = b * BLOCK + tl.arange(0, BLOCK)
        running += tl.sum(tl.load(src + idx, mask=idx < length, other=0.0).to(tl.float32), axis=0)
    tl.store(dst, running)


def total(x, BLOCK=64):
    dst = x.new_zeros(1, dtype=torch.float32)
    reduce_all[(1,)](x, dst, x.numel(), BLOCK=BLOCK)
    return dst
