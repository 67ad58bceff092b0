# kata: triton-online-softmax
# why: one loop only: each block is written with the running max and sum as they stand when it is read
# mistake: single_pass
import torch
import triton
import triton.language as tl


@triton.jit
def _online_softmax(X, Y, N, sx, sy, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    k = tl.arange(0, BLOCK)
    run_max = float("-inf")
    run_sum = 0.0
    for j0 in range(0, N, BLOCK):
        ok = j0 + k < N
        v = tl.load(X + i * sx + j0 + k, mask=ok, other=float("-inf")).to(tl.float32)
        new_max = tl.maximum(run_max, tl.max(v, axis=0))
        run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(v - new_max), axis=0)
        run_max = new_max
        tl.store(Y + i * sy + j0 + k, tl.exp(v - run_max) / run_sum, mask=ok)


def softmax(x, BLOCK=64):
    y = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    _online_softmax[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0), BLOCK=BLOCK)
    return y
