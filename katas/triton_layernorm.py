# kata: triton-layernorm
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    raise NotImplementedError("write layernorm_kernel")


def layernorm(x, weight, bias, eps=1e-5):
    raise NotImplementedError("write layernorm")
