"""Row softmax: what the kernel computes, as the checker computes it (in torch: it judges without triton).

Triton's tutorial "Fused Softmax" (triton-lang.org, getting-started/tutorials/02-fused-softmax.py) is the kernel
this kata asks for: one program per row loads the row once, subtracts its max, exponentiates, divides by the sum
and stores the result, so x is read and the result written exactly once. softmax(x)_j = exp(x_j − m) / Σ_k
exp(x_k − m) with m = max_k x_k: the shift changes nothing mathematically and keeps every exponent ≤ 0, so nothing
overflows (Goodfellow et al., "Deep Learning", 2016, §4.1). Computed here in float64 from the (already rounded)
input and rounded once to x's dtype; `kata solutions` shows kernels after a pass.
"""
import torch


def softmax(x):
    """x (M, N), float32 or float16, any row stride -> (M, N) softmax over each row, a new tensor in x's dtype."""
    assert x.dim() == 2, f"expected x [M, N], got {tuple(x.shape)}"
    h = x.double()  # (M, N): exact for float32 and float16 inputs
    m = h.amax(dim=1, keepdim=True)  # (M, 1): each row's own max
    e = torch.exp(h - m)  # (M, N): every exponent <= 0
    return (e / e.sum(dim=1, keepdim=True)).to(x.dtype)  # (M, N)
