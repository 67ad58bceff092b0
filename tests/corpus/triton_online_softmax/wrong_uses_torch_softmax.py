# kata: triton-online-softmax
# why: launches a copy kernel, then returns torch.softmax of the copy (a banned call; what it computes is torch after the launch)
# mistake: result_from_torch
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * stride_x + cols, mask=cols < n_cols)
        tl.store(out_ptr + row * stride_out + cols, v, mask=cols < n_cols)


def softmax(x, BLOCK=64):
    out = torch.empty_like(x)
    copy_kernel[(x.shape[0],)](x, out, x.shape[1], x.stride(0), out.stride(0), BLOCK=BLOCK)
    return torch.softmax(out.float(), dim=-1).to(x.dtype)
