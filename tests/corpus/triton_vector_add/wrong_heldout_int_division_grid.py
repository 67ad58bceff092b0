# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: the program count from int(n / BLOCK), a float division truncated
# mistake: grid_floor


@triton.jit
def _add(x, y, o, length, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK) + BLOCK * tl.program_id(0)
    inb = r < length
    xv = tl.load(x + r, mask=inb)
    yv = tl.load(y + r, mask=inb)
    tl.store(o + r, xv + yv, mask=inb)


def add(x, y, BLOCK=256):
    length = len(x)
    result = torch.empty(length, dtype=x.dtype, device=x.device)
    num_blocks = int(length / BLOCK)
    _add[(num_blocks,)](x, y, result, length, BLOCK=BLOCK)
    return result
