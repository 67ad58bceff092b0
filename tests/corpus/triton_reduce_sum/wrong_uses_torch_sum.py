# kata: triton-reduce-sum
# why: torch.sum does the reduction (banned); one program copies the result, so what runs is a single program
# mistake: single_program
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, dst_ptr):
    tl.store(dst_ptr, tl.load(src_ptr))


def total(x, BLOCK=64):
    s = torch.sum(x.float()).reshape(1)
    out = torch.empty(1, dtype=torch.float32, device=x.device)
    copy_kernel[(1,)](s, out)
    return out
