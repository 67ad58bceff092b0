# kata: triton-softmax
# why: the kernel only exponentiates the shifted row; torch divides by the row sums afterwards
# mistake: result_from_torch
import torch
import triton
import triton.language as tl


@triton.jit
def exp_shifted(src, dst, width, s_src, s_dst, B: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, B)
    v = tl.load(src + r * s_src + c, mask=c < width, other=-float("inf")).to(tl.float32)
    tl.store(dst + r * s_dst + c, tl.exp(v - tl.max(v, 0)), mask=c < width)


def softmax(x):
    rows, width = x.shape
    e = torch.empty_like(x)
    exp_shifted[(rows,)](x, e, width, x.stride(0), e.stride(0), B=triton.next_power_of_2(width))
    return e / e.sum(-1, keepdim=True)
