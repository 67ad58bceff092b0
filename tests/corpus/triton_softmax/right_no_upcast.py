# kata: triton-softmax
# why: x made contiguous first, so n_cols is both row strides; no explicit .to(tl.float32): x - max is already float32
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_fwd(inp, outp, ncols, B: tl.constexpr):
    pid = tl.program_id(axis=0).to(tl.int64)
    k = tl.arange(0, B)
    ok = k < ncols
    base = pid * ncols
    logits = tl.load(inp + base + k, mask=ok, other=float("-inf"))
    ex = tl.exp(logits - tl.max(logits, 0))
    tl.store(outp + base + k, ex / tl.sum(ex, 0), mask=ok)


def softmax(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    rows, cols = x.shape
    res = torch.empty(rows, cols, device=x.device, dtype=x.dtype)
    _softmax_fwd[(rows,)](x, res, cols, B=max(16, triton.next_power_of_2(cols)))
    return res
