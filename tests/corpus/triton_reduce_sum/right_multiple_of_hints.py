# kata: triton-reduce-sum
# why: tl.multiple_of / tl.max_contiguous hints, the sum as a tensor method with the default axis, a 2-tuple grid
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    block_start = tl.multiple_of(tl.program_id(0) * BLOCK, BLOCK)
    offsets = tl.max_contiguous(block_start + tl.arange(0, BLOCK), BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr, x.sum())


def total(x, BLOCK=64):
    assert x.is_contiguous() and x.ndim == 1
    out = torch.zeros((1,), dtype=torch.float32, device=x.device)
    sum_kernel[(triton.cdiv(x.numel(), BLOCK), 1)](x, out, x.numel(), BLOCK=BLOCK)
    return out
