# kata: triton-reduce-sum
# why: every lane adds its own element with one vector tl.atomic_add into the same address (right, slow on a GPU)
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr + offs * 0, x, mask=mask)


def total(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out
