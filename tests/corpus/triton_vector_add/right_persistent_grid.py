# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: a persistent kernel: a fixed grid of 2 programs strides over the blocks with a runtime loop


@triton.jit
def add_persistent(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    for start in range(pid * BLOCK, n, programs * BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < n
        s = tl.load(x_ptr + offsets, mask=mask, other=0.0) + tl.load(y_ptr + offsets, mask=mask, other=0.0)
        tl.store(out_ptr + offsets, s, mask=mask)


def add(x, y, BLOCK=256):
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    add_persistent[(2,)](x, y, out, x.numel(), BLOCK=BLOCK)
    return out
