# kata: triton-online-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    raise NotImplementedError("write softmax_kernel")


def softmax(x, BLOCK=64):
    raise NotImplementedError("write softmax")
