# kata: triton-softmax
# why: the output is allocated float32 whatever x's dtype, and returned as it is
# mistake: float32_output
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n_cols
    x = tl.load(x_ptr + pid * stride_x + offsets, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + pid * stride_out + offsets, num / tl.sum(num, axis=0), mask=mask)


def softmax(x):
    out = torch.empty_like(x, dtype=torch.float32)
    softmax_kernel[(x.shape[0],)](x, out, x.shape[1], x.stride(0), out.stride(0),
                                  BLOCK=triton.next_power_of_2(x.shape[1]))
    return out
