# expect: pass
# why: the deterministic two-stage reduction: each program writes its partial sum to its own slot, then a
# second launch of one program adds the partials.
import torch
import triton
import triton.language as tl


@triton.jit
def partial_kernel(x_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    tl.store(part_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def finish_kernel(part_ptr, out_ptr, parts, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, parts, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def total(x, BLOCK=64):
    n = x.numel()
    parts = triton.cdiv(n, BLOCK)
    partials = torch.empty(parts, dtype=torch.float32, device=x.device)
    out = torch.empty(1, dtype=torch.float32, device=x.device)
    partial_kernel[(parts,)](x, partials, n, BLOCK=BLOCK)
    finish_kernel[(1,)](partials, out, parts, BLOCK=BLOCK)
    return out
