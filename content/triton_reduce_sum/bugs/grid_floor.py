# kata: triton-reduce-sum
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def total(x, BLOCK=64):
    n = x.numel()
    num_blocks = n // BLOCK
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    sum_kernel[(num_blocks,)](x, out, n, BLOCK=BLOCK)
    return out
