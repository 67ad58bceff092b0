# kata: triton-reduce-sum
# why: the kernel writes one partial sum per block and torch finishes the job (the last element of a cumsum)
# mistake: result_from_torch
import torch
import triton
import triton.language as tl


@triton.jit
def block_sums(x_ptr, sums_ptr, n, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    idx = b * BLOCK + tl.arange(0, BLOCK)
    tl.store(sums_ptr + b, tl.sum(tl.load(x_ptr + idx, mask=idx < n, other=0.0).to(tl.float32), axis=0))


def total(x, BLOCK=64):
    n = x.numel()
    sums = torch.empty(triton.cdiv(n, BLOCK), dtype=torch.float32, device=x.device)
    block_sums[(triton.cdiv(n, BLOCK),)](x, sums, n, BLOCK=BLOCK)
    return sums.cumsum(0)[-1:]
