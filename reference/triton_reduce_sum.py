"""The sum of a vector by many programs: each sums one block, the block sums meet in one float32 total.

The pattern is the reduction of Triton's own kernels: a program reduces its block with tl.sum (a tree, in
registers) and combines its result with the other programs' through memory, either with `tl.atomic_add` into a
zeroed output (as the LayerNorm backward of Triton's tutorials, 05-layer-norm.py, accumulates partial weight
gradients across programs) or by storing it in its own slot of a buffer that a second launch adds up (the two-stage
reduction, deterministic). The learner writes one of them; this is what they compute, in torch: Σx over the n
elements, in float64 from the (already rounded) inputs, rounded once to float32 whatever x's dtype (float16 block
sums overflow: its largest value is 65,504). The checker's parent judges with it and never imports triton; BLOCK does
not change the result: it is the launch's tiling, which the checker holds the learner's grid to.

The kernel and wrapper this reference stands for (one program per block of BLOCK elements, atomics):

    @triton.jit
    def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offsets = pid * BLOCK + tl.arange(0, BLOCK)   # this program's block
        mask = offsets < n                            # the last block is usually partial
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)   # padding adds 0; float32 sums
        tl.atomic_add(out_ptr, tl.sum(x, axis=0))     # the programs' sums meet without a race

    def total(x, BLOCK=64):
        out = torch.zeros(1, dtype=torch.float32, device=x.device)   # atomics add to what is there: start at 0
        n = x.numel()
        sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
"""
import torch


def total(x, BLOCK=64):
    assert x.dim() == 1 and x.numel() >= 1, "x: [n], n >= 1"
    assert x.dtype in (torch.float32, torch.float16), "x: float32 or float16"
    assert BLOCK >= 1 and BLOCK & (BLOCK - 1) == 0, "BLOCK is a power of two"
    s = x.double().sum()  # [], exact enough: at most 1000 terms in float64
    return s.reshape(1).to(torch.float32)  # [1], rounded once
