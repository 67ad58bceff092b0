# kata: triton-reduce-sum
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    block_sum = tl.sum(x, axis=0)
    running = tl.load(out_ptr)
    tl.store(out_ptr, running + block_sum)


def total(x, BLOCK=64):
    n = x.numel()
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    grid = (triton.cdiv(n, BLOCK),)
    sum_kernel[grid](x, out, n, BLOCK=BLOCK)
    return out
