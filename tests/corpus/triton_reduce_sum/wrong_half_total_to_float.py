# kata: triton-reduce-sum
# why: the atomics add into a total of x's dtype, converted to float32 by torch after the launch
# mistake: result_from_torch
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.atomic_add(acc_ptr, tl.sum(tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32), axis=0))


def total(x, BLOCK=64):
    n = x.numel()
    acc = torch.zeros(1, dtype=x.dtype, device=x.device)
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, acc, n, BLOCK=BLOCK)
    return acc.to(torch.float32)
