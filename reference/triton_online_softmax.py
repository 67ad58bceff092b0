"""Row softmax computed by streaming each row in column blocks: the function the learner's Triton kernel computes
(the checker's reference, in torch).

Milakov and Gimelshein, "Online normalizer calculation for softmax" (2018, arXiv:1805.02867), Algorithm 3: one
pass keeps a running max m and a running sum d of exp(x_j − m); a new max m' rescales the sum,
d ← d·exp(m − m') + Σ exp(x_j − m'), and a second pass writes exp(x_j − m)/d. The result is exactly
softmax(x)_j = exp(x_j − m)/Σ_k exp(x_k − m) with m = max_k x_k, the row max: the recurrence changes how the
kernel reads the row (one block at a time, so any N fits), not what it computes. So the reference is the plain
formula, in float64 from the (already rounded) input, rounded once to x's dtype; the kernel is the learner's, and
the parent that judges never imports triton.
"""
import torch


def softmax(x, BLOCK=64):
    """x (M, N), float32 or float16, any row stride -> (M, N) softmax over each row, a new tensor in x's dtype.
    BLOCK (the kernel's column block) does not change the result."""
    assert x.dim() == 2, f"expected x [M, N], got {tuple(x.shape)}"
    h = x.double()  # (M, N): exact for float32 and float16 inputs
    m = h.amax(dim=1, keepdim=True)  # (M, 1): each row's max, the m the recurrence ends with
    e = torch.exp(h - m)  # (M, N): every exponent <= 0
    return (e / e.sum(dim=1, keepdim=True)).to(x.dtype)  # (M, N)
