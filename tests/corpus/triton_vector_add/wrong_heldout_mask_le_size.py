# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: the bound written as idx <= size - and the count passed as the size
# mistake: mask_off_by_one


@triton.jit
def vec_add(a, b, c, size, BLK: tl.constexpr):
    p = tl.program_id(0)
    idx = p * BLK + tl.arange(0, BLK)
    valid = idx <= size
    va = tl.load(a + idx, mask=valid)
    vb = tl.load(b + idx, mask=valid)
    tl.store(c + idx, va + vb, mask=valid)


def add(x, y, BLOCK=256):
    size = x.numel()
    c = torch.empty_like(x)
    vec_add[(triton.cdiv(size, BLOCK),)](x, y, c, size, BLK=BLOCK)
    return c
