# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: the tutorial's lambda grid with floor division, meta['BLOCK_SIZE'] names
# mistake: grid_floor


@triton.jit
def vadd_kernel(a_ptr, b_ptr, c_ptr, N, BLOCK_SIZE: tl.constexpr):
    block = tl.program_id(axis=0)
    idx = block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    ok = idx < N
    tl.store(c_ptr + idx, tl.load(a_ptr + idx, mask=ok) + tl.load(b_ptr + idx, mask=ok), mask=ok)


def add(x, y, BLOCK=256):
    c = torch.empty_like(x)
    N = c.numel()
    grid = lambda meta: (N // meta["BLOCK_SIZE"],)
    vadd_kernel[grid](x, y, c, N, BLOCK_SIZE=BLOCK)
    return c
