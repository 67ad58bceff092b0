# expect: race
# why: program 0 resets the total with a plain store while the others add to it atomically: on a GPU the
# reset can land after another program's add.
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    if pid == 0:
        tl.store(out_ptr, 0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def total(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    sum_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, out, x.numel(), BLOCK=BLOCK)
    return out
