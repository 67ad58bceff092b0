# kata: triton-reduce-sum
import torch
import triton
import triton.language as tl


@triton.jit
def block_sums_kernel(x_ptr, partials_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).to(tl.float32)
    tl.store(partials_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def add_partials_kernel(partials_ptr, out_ptr, count, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, count, BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        acc += tl.load(partials_ptr + offsets, mask=offsets < count, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def total(x, BLOCK=64):
    n = x.numel()
    programs = triton.cdiv(n, BLOCK)
    partials = torch.empty(programs, dtype=torch.float32, device=x.device)
    out = torch.empty(1, dtype=torch.float32, device=x.device)
    block_sums_kernel[(programs,)](x, partials, n, BLOCK=BLOCK)
    add_partials_kernel[(1,)](partials, out, programs, BLOCK=BLOCK)
    return out
