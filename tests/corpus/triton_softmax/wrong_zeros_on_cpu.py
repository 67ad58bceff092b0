# kata: triton-softmax
# why: the output is torch.zeros(...) with a dtype but no device: on a GPU the kernel would get a host pointer
# mistake: no_device
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, o_ptr, N, sx, so, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i * sx + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
    z = tl.exp(x - tl.max(x, axis=0))
    tl.store(o_ptr + i * so + cols, z / tl.sum(z, axis=0), mask=cols < N)


def softmax(x):
    M, N = x.shape
    o = torch.zeros(M, N, dtype=x.dtype)
    softmax_kernel[(M,)](x, o, N, x.stride(0), o.stride(0), BLOCK=triton.next_power_of_2(N))
    return o
