# kata: triton-vector-add
import torch
import triton
import triton.language as tl
# why: held-out: loads masked with other=0.0, but the store writes every lane of the last block
# mistake: store_unmasked


@triton.jit
def elementwise_add(in0, in1, out, n, BLOCK: tl.constexpr):
    lanes = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = lanes < n
    total = tl.load(in0 + lanes, mask=valid, other=0.0) + tl.load(in1 + lanes, mask=valid, other=0.0)
    tl.store(out + lanes, total)


def add(x, y, BLOCK=256):
    out = torch.empty_like(x)
    elementwise_add[((x.numel() + BLOCK - 1) // BLOCK,)](x, y, out, x.numel(), BLOCK=BLOCK)
    return out
