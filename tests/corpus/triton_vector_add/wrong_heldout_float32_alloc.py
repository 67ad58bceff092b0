# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: the output allocated with dtype=torch.float32 on the inputs' device, returned as it is
# mistake: float32_output


@triton.jit
def sum2(p, q, r, n, BLOCK: tl.constexpr):
    k = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(r + k, tl.load(p + k, mask=k < n) + tl.load(q + k, mask=k < n), mask=k < n)


def add(x, y, BLOCK=256):
    r = torch.empty(x.numel(), dtype=torch.float32, device=x.device)
    sum2[(triton.cdiv(x.numel(), BLOCK),)](x, y, r, x.numel(), BLOCK=BLOCK)
    return r
