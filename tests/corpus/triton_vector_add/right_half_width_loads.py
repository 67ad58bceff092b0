# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: loads and stores half a block at a time (narrower than the block rule allows), twice per program; prints the grid


@triton.jit
def add_halves(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    HALF: tl.constexpr = BLOCK // 2
    base = tl.program_id(0) * BLOCK
    lo = base + tl.arange(0, HALF)
    hi = lo + HALF
    tl.store(out_ptr + lo, tl.load(x_ptr + lo, mask=lo < n) + tl.load(y_ptr + lo, mask=lo < n), mask=lo < n)
    tl.store(out_ptr + hi, tl.load(x_ptr + hi, mask=hi < n) + tl.load(y_ptr + hi, mask=hi < n), mask=hi < n)


def add(x, y, BLOCK=256):
    out = torch.empty_like(x)
    grid = (triton.cdiv(x.numel(), BLOCK),)
    print("launching", grid)
    add_halves[grid](x, y, out, x.numel(), BLOCK=BLOCK)
    return out
