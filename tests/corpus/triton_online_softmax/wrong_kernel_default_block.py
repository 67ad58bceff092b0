# kata: triton-online-softmax
# why: the block is a module constant of 64 that the wrapper launches with, whatever BLOCK it is given
# mistake: fixed_block
import torch
import triton
import triton.language as tl

TILE = 64


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, TILE: tl.constexpr):
    pid = tl.program_id(0)
    r = tl.arange(0, TILE)
    mx = -float("inf")
    acc = 0.0
    for c0 in range(0, n_cols, TILE):
        c = c0 + r
        v = tl.load(x_ptr + pid * stride_x + c, mask=c < n_cols, other=-float("inf")).to(tl.float32)
        mx_new = tl.maximum(mx, tl.max(v, 0))
        acc = acc * tl.exp(mx - mx_new) + tl.sum(tl.exp(v - mx_new), 0)
        mx = mx_new
    for c0 in range(0, n_cols, TILE):
        c = c0 + r
        v = tl.load(x_ptr + pid * stride_x + c, mask=c < n_cols, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + pid * stride_out + c, tl.exp(v - mx) / acc, mask=c < n_cols)


def softmax(x, BLOCK=64):
    out = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, out, x.shape[1], x.stride(0), out.stride(0), TILE=TILE)
    return out
