"""LayerNorm forward, the fused kernel of Triton's tutorials (triton-lang.org, "Layer Normalization",
05-layer-norm.py, `_layer_norm_fwd_fused`).

The learner writes the kernel and its wrapper; this is what they compute, in torch: Ba, Kiros & Hinton, "Layer
Normalization" (2016), eq. 4, every row normalised by its own mean and biased variance (÷ N) and then gained and
shifted, y = (x − μ) / sqrt(σ² + ε) · w + b, with ε inside the root as in torch.nn.LayerNorm. Computed in float64
from the (already rounded) inputs and rounded once to x's dtype. The checker's parent judges with it and never
imports triton.

The kernel and wrapper this reference stands for (one program per row, the row in one block: x is read once and y
written once, both statistics in float32 on chip):

    @triton.jit
    def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N                               # BLOCK overhangs the row unless N is a power of two
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.sum(x, axis=0) / N                  # ÷ N, not BLOCK
        diff = tl.where(mask, x - mean, 0.0)          # the padding stays out of the variance
        rstd = 1 / tl.sqrt(tl.sum(diff * diff, axis=0) / N + eps)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_ptr + row * stride_y + cols, (diff * rstd * w + b).to(y_ptr.dtype.element_ty), mask=mask)

    def layernorm(x, weight, bias, eps=1e-5):
        M, N = x.shape
        y = torch.empty((M, N), dtype=x.dtype, device=x.device)   # its own row stride, N
        layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=triton.next_power_of_2(N))
        return y
"""
import torch


def layernorm(x, weight, bias, eps=1e-5):
    """x (M, N), weight (N,), bias (N,), float32 or float16, any row stride -> (M, N) in x's dtype."""
    assert x.dim() == 2 and weight.shape == bias.shape == x.shape[1:], \
        f"expected x [M, N], weight [N], bias [N], got {tuple(x.shape)}, {tuple(weight.shape)}, {tuple(bias.shape)}"
    h = x.double()  # (M, N): exact for float32 and float16 inputs
    mean = h.mean(dim=1, keepdim=True)  # (M, 1)
    centred = h - mean  # (M, N)
    var = (centred * centred).mean(dim=1, keepdim=True)  # (M, 1): biased, ÷ N, from the centred values
    y = centred / torch.sqrt(var + eps) * weight.double() + bias.double()  # (M, N): eps inside the root
    return y.to(x.dtype)
