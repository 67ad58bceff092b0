# kata: triton-online-softmax
# why: the kernel finds each row's max and stores exp(x - max); torch divides by the row sums after the launch
# mistake: result_from_torch
import torch
import triton
import triton.language as tl


@triton.jit
def exp_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    r = tl.arange(0, BLOCK)
    mx = -float("inf")
    for c0 in range(0, n_cols, BLOCK):
        v = tl.load(x_ptr + pid * stride_x + c0 + r, mask=c0 + r < n_cols, other=-float("inf"))
        mx = tl.maximum(mx, tl.max(v.to(tl.float32), 0))
    for c0 in range(0, n_cols, BLOCK):
        v = tl.load(x_ptr + pid * stride_x + c0 + r, mask=c0 + r < n_cols, other=-float("inf"))
        tl.store(out_ptr + pid * stride_out + c0 + r, tl.exp(v.to(tl.float32) - mx), mask=c0 + r < n_cols)


def softmax(x, BLOCK=64):
    e = torch.empty_like(x)
    exp_kernel[(x.shape[0],)](x, e, x.shape[1], x.stride(0), e.stride(0), BLOCK=BLOCK)
    return e / e.sum(-1, keepdim=True)
