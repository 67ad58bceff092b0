# kata: triton-softmax
# why: the kernel fills a float32 buffer and torch converts it to half afterwards
# mistake: result_from_torch
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * stride_x + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out + offs, e / tl.sum(e, axis=0), mask=m)


def softmax(x):
    M, N = x.shape
    acc = torch.empty((M, N), device=x.device, dtype=torch.float32)
    softmax_kernel[(M,)](x, acc, N, x.stride(0), acc.stride(0), BLOCK=triton.next_power_of_2(N))
    if x.dtype == torch.float16:
        return acc.half()
    return acc
