# kata: triton-softmax
# why: a grid lambda, BLOCK from @triton.heuristics, both strides of both tensors, the log-sum-exp form, an explicit cast
import torch
import triton
import triton.language as tl


@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["N"])})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, N, sxm, sxn, sym, syn, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    j = tl.arange(0, BLOCK)
    inside = j < N
    v = tl.load(x_ptr + i * sxm + j * sxn, mask=inside, other=-float("inf")).to(tl.float32)
    m = tl.max(v, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(v - m), axis=0))
    tl.store(y_ptr + i * sym + j * syn, tl.exp(v - lse).to(y_ptr.dtype.element_ty), mask=inside)


def softmax(x):
    M, N = x.shape
    y = x.new_empty((M, N))
    grid = lambda meta: (M,)
    softmax_kernel[grid](x, y, N, x.stride(0), x.stride(1), y.stride(0), y.stride(1))
    return y
