# kata: triton-reduce-sum
# why: a two-stage reduction whose first kernel stores every block sum at partials[0], not partials[pid]
# mistake: store_not_atomic
import torch
import triton
import triton.language as tl


@triton.jit
def stage_one(inp, partials, N, BS: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BS + tl.arange(0, BS)
    chunk = tl.load(inp + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(partials, tl.sum(chunk, axis=0))


@triton.jit
def stage_two(partials, out, count, BS: tl.constexpr):
    total = 0.0
    for i in range(0, count, BS):
        j = i + tl.arange(0, BS)
        total += tl.sum(tl.load(partials + j, mask=j < count, other=0.0), axis=0)
    tl.store(out, total)


def total(x, BLOCK=64):
    N = x.numel()
    nblocks = triton.cdiv(N, BLOCK)
    partials = torch.zeros(nblocks, dtype=torch.float32, device=x.device)
    out = torch.empty(1, dtype=torch.float32, device=x.device)
    stage_one[(nblocks,)](x, partials, N, BS=BLOCK)
    stage_two[(1,)](partials, out, nblocks, BS=BLOCK)
    return out
