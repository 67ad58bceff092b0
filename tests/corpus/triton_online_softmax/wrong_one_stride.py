# kata: triton-online-softmax
# why: one stride argument, x's, used for the output's rows as well
# mistake: out_stride_of_x
import torch
import triton
import triton.language as tl


@triton.jit
def _online_softmax(X, Y, N, stride, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    k = tl.arange(0, BLOCK)
    run_max = float("-inf")
    run_sum = 0.0
    for j0 in range(0, N, BLOCK):
        ok = j0 + k < N
        v = tl.load(X + i * stride + j0 + k, mask=ok, other=float("-inf")).to(tl.float32)
        new_max = tl.maximum(run_max, tl.max(v, axis=0))
        run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(v - new_max), axis=0)
        run_max = new_max
    for j0 in range(0, N, BLOCK):
        ok = j0 + k < N
        v = tl.load(X + i * stride + j0 + k, mask=ok, other=float("-inf")).to(tl.float32)
        tl.store(Y + i * stride + j0 + k, tl.exp(v - run_max) / run_sum, mask=ok)


def softmax(x, BLOCK=64):
    y = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    _online_softmax[lambda meta: (x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=BLOCK)
    return y
