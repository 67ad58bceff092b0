# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: upcasts both operands to float32 in the kernel and lets the store round to the output's dtype; contiguous() copies of the inputs


@triton.jit
def kernel(a, b, c, numel, BLOCK: tl.constexpr):
    i = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    m = i < numel
    va = tl.load(a + i, mask=m).to(tl.float32)
    vb = tl.load(b + i, mask=m).to(tl.float32)
    tl.store(c + i, va + vb, mask=m)


def add(x, y, BLOCK=256):
    x, y = x.contiguous(), y.contiguous()
    c = torch.empty_like(x)
    numel = x.numel()
    kernel[(triton.cdiv(numel, BLOCK),)](x, y, c, numel, BLOCK=BLOCK)
    return c
