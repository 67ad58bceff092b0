"""Root mean square layer normalisation.

Zhang & Sennrich, "Root Mean Square Layer Normalization" (2019), eq. 4: ā_i = a_i / RMS(a) · g_i with
RMS(a) = sqrt((1/n) Σ_i a_i²): LayerNorm without re-centring (no mean subtracted) and without a bias.
As LLaMA, ε sits inside the root: y = x · rsqrt(mean(x²) + ε) · weight.
"""
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.dim = dim
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))  # the gain g; RMSNorm has no bias

    def forward(self, x):
        """x (*, dim) -> (*, dim): each vector along the last dim rescaled to unit RMS, in x's dtype."""
        assert x.shape[-1] == self.dim, f"expected x [*, {self.dim}], got {tuple(x.shape)}"
        # float16 squares overflow past 256, so half inputs are normalised in float32; float32 and
        # float64 keep their own precision (an unconditional float32 cast would cost float64 its accuracy).
        h = x.to(torch.promote_types(x.dtype, torch.float32))
        inv_rms = torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)  # (*, 1)
        y = h * inv_rms * self.weight.to(h.dtype)  # (*, dim)
        return y.to(x.dtype)
