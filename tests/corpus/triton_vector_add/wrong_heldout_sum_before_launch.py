# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: the sum computed by torch up front and returned; the kernel's own output is discarded
# mistake: result_from_torch


@triton.jit
def add_k(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + o, tl.load(x_ptr + o, mask=o < n) + tl.load(y_ptr + o, mask=o < n), mask=o < n)


def add(x, y, BLOCK=256):
    expected = x + y
    scratch = torch.empty_like(x)
    add_k[(triton.cdiv(x.numel(), BLOCK),)](x, y, scratch, x.numel(), BLOCK=BLOCK)
    return expected
