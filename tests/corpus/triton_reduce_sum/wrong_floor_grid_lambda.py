# kata: triton-reduce-sum
# why: the grid lambda divides with //, so the last, partial block has no program
# mistake: grid_floor
import torch
import triton
import triton.language as tl


@triton.jit
def partial_sum_kernel(inp_ptr, res_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    idx = row * BLOCK + tl.arange(0, BLOCK)
    vals = tl.load(inp_ptr + idx, mask=idx < N, other=0.0)
    tl.atomic_add(res_ptr, tl.sum(vals.to(tl.float32)))


def total(x, BLOCK=64):
    N = x.numel()
    res = torch.zeros((1,), device=x.device, dtype=torch.float32)
    partial_sum_kernel[lambda META: (N // META["BLOCK"],)](x, res, N, BLOCK=BLOCK)
    return res
