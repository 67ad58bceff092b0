# kata: triton-reduce-sum
# why: @triton.autotune over BLOCK (refused: the checker passes the blocks, and autotune needs a GPU driver)
# mistake: none
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})], key=["n"])
@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def total(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
    return out
