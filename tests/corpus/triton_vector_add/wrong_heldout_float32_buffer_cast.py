# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: a float32 accumulation buffer, converted to the inputs' dtype with .to(dtype=...) after the launch
# mistake: result_from_torch


@triton.jit
def fp32_add(a_ptr, b_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    j = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = j < n
    acc = tl.load(a_ptr + j, mask=keep).to(tl.float32) + tl.load(b_ptr + j, mask=keep).to(tl.float32)
    tl.store(acc_ptr + j, acc, mask=keep)


def add(x, y, BLOCK=256):
    n = x.numel()
    acc = torch.empty(n, device=x.device, dtype=torch.float32)
    fp32_add[(triton.cdiv(n, BLOCK),)](x, y, acc, n, BLOCK=BLOCK)
    return acc.to(dtype=x.dtype)
