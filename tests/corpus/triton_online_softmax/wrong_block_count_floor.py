# kata: triton-online-softmax
# why: the wrapper counts the blocks as N // BLOCK and the kernel loops that many times, so the partial block is never read or written
# mistake: last_block_dropped
import torch
import triton
import triton.language as tl


@triton.jit
def _online_softmax(X, Y, N, n_blocks, sx, sy, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    k = tl.arange(0, BLOCK)
    run_max = float("-inf")
    run_sum = 0.0
    for b in range(n_blocks):
        ok = b * BLOCK + k < N
        v = tl.load(X + i * sx + b * BLOCK + k, mask=ok, other=float("-inf")).to(tl.float32)
        new_max = tl.maximum(run_max, tl.max(v, axis=0))
        run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(v - new_max), axis=0)
        run_max = new_max
    for b in range(n_blocks):
        ok = b * BLOCK + k < N
        v = tl.load(X + i * sx + b * BLOCK + k, mask=ok, other=float("-inf")).to(tl.float32)
        tl.store(Y + i * sy + b * BLOCK + k, tl.exp(v - run_max) / run_sum, mask=ok)


def softmax(x, BLOCK=64):
    y = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n_blocks = x.shape[1] // BLOCK
    _online_softmax[(x.shape[0],)](x, y, x.shape[1], n_blocks, x.stride(0), y.stride(0), BLOCK=BLOCK)
    return y
