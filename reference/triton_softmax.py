"""Row softmax, the fused kernel of Triton's tutorials (triton-lang.org, "Fused Softmax", 02-fused-softmax.py).

The learner writes the kernel and its wrapper; this is what they compute, in torch: softmax(x)_j = exp(x_j − m) /
Σ_k exp(x_k − m) along each row, with m = max_k x_k — the shift changes nothing mathematically and keeps every
exponent ≤ 0, so nothing overflows (Goodfellow et al., "Deep Learning", 2016, §4.1). Computed in float64 from the
(already rounded) input and rounded once to x's dtype. The checker's parent judges with it and never imports triton.

The kernel and wrapper this reference stands for (the tutorial's, one program per row: x is read once and the
result written once, every step in between on chip):

    @triton.jit
    def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols                          # BLOCK overhangs the row unless N is a power of two
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
        num = tl.exp(x - tl.max(x, axis=0))           # padding: exp(-inf) = 0, never the max
        tl.store(out_ptr + row * stride_out + cols, num / tl.sum(num, axis=0), mask=mask)

    def softmax(x):
        M, N = x.shape
        out = torch.empty((M, N), dtype=x.dtype, device=x.device)   # its own row stride, N
        softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(N))
        return out
"""
import torch


def softmax(x):
    """x (M, N), float32 or float16, any row stride -> (M, N) softmax over each row, a new tensor in x's dtype."""
    assert x.dim() == 2, f"expected x [M, N], got {tuple(x.shape)}"
    h = x.double()  # (M, N): exact for float32 and float16 inputs
    m = h.amax(dim=1, keepdim=True)  # (M, 1): each row's own max
    e = torch.exp(h - m)  # (M, N): every exponent <= 0
    return (e / e.sum(dim=1, keepdim=True)).to(x.dtype)  # (M, N)
