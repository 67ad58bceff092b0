"""GELU, the Gaussian error linear unit, in torch's two forms (`F.gelu`).

Hendrycks & Gimpel, "Gaussian Error Linear Units (GELUs)" (2016), eq. 1 and §2:
    exact:  GELU(x) = x · Φ(x) = 0.5 · x · (1 + erf(x / √2))
    tanh:   GELU(x) ≈ 0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))
The tanh form is GPT-2's `gelu_new` (and BERT's TF code); `F.gelu(x, approximate="tanh")` computes the same.
"""
import math

import torch


def gelu(x, approximate="none"):
    """x (*) -> (*), elementwise, in x's dtype. Half inputs are computed in float32 and rounded once (as torch
    does); float32 and float64 are computed in their own precision."""
    assert approximate in ("none", "tanh"), f"approximate must be 'none' or 'tanh', got {approximate!r}"
    h = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (h + 0.044715 * h**3)
        y = 0.5 * h * (1.0 + torch.tanh(inner))
    else:
        y = 0.5 * h * (1.0 + torch.erf(h / math.sqrt(2.0)))
    return y.to(x.dtype)
