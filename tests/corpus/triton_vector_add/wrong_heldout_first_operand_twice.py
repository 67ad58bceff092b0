# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: copy-paste slip, the second operand loaded through the first pointer
# mistake: x_loaded_twice


@triton.jit
def _kernel(lhs_ptr, rhs_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    pos = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = pos < n
    lhs = tl.load(lhs_ptr + pos, mask=live, other=0.0)
    rhs = tl.load(lhs_ptr + pos, mask=live, other=0.0)
    tl.store(dst_ptr + pos, lhs + rhs, mask=live)


def add(x, y, BLOCK=256):
    dst = torch.empty_like(x)
    _kernel[(triton.cdiv(x.numel(), BLOCK),)](x, y, dst, x.numel(), BLOCK=BLOCK)
    return dst
