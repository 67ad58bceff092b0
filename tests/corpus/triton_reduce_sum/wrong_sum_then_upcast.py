# kata: triton-reduce-sum
# why: the block is summed in x's dtype and only the sum converted to float32: a float16 block sum overflows
# mistake: float16_block_sums
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    chunk = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    partial = tl.sum(chunk, axis=0).to(tl.float32)
    tl.atomic_add(out_ptr, partial)


def total(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    sum_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, out, x.numel(), BLOCK=BLOCK)
    return out
