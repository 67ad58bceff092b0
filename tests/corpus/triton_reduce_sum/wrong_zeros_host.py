# kata: triton-reduce-sum
# why: the total is allocated with torch.zeros(1, dtype=torch.float32) and no device=, on the CPU whatever x's device
# mistake: no_device
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(src_ptr, dst_ptr, count, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < count
    s = tl.sum(tl.where(m, tl.load(src_ptr + i, mask=m, other=0.0), 0.0).to(tl.float32), axis=0)
    tl.atomic_add(dst_ptr, s)


def total(x, BLOCK=64):
    count = x.numel()
    dst = torch.zeros(1, dtype=torch.float32)
    sum_kernel[(triton.cdiv(count, BLOCK),)](x, dst, count, BLOCK=BLOCK)
    return dst
