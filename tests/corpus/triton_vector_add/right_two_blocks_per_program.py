# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: each program handles two consecutive blocks in a static loop; the grid is halved, every access stays BLOCK wide


@triton.jit
def add_two(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    first = tl.program_id(0) * 2 * BLOCK
    for k in tl.static_range(2):
        offs = first + k * BLOCK + tl.arange(0, BLOCK)
        keep = offs < n
        a = tl.load(x_ptr + offs, mask=keep)
        b = tl.load(y_ptr + offs, mask=keep)
        tl.store(z_ptr + offs, a + b, mask=keep)


def add(x, y, BLOCK=256):
    z = x.new_empty(x.shape)
    n = x.shape[0]
    add_two[(triton.cdiv(n, 2 * BLOCK),)](x, y, z, n, BLOCK=BLOCK)
    return z
