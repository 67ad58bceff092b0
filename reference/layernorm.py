"""Layer normalisation.

Ba, Kiros & Hinton, "Layer Normalization" (2016), eq. 4: every vector is normalised by its own
statistics over its H features, μ = (1/H) Σ_i a_i, σ² = (1/H) Σ_i (a_i − μ)² (biased, ÷ H), then
gained and shifted: y = g ⊙ (a − μ) / σ + b. As torch.nn.LayerNorm, ε sits inside the root:
(a − μ) / sqrt(σ² + ε).
"""
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, normalized_shape: int, eps: float = 1e-5):
        super().__init__()
        self.normalized_shape = normalized_shape
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))  # the gain g
        self.bias = nn.Parameter(torch.zeros(normalized_shape))  # the bias b

    def forward(self, x):
        """x (*, D) -> (*, D): each vector along the last dim normalised, in x's dtype."""
        assert x.shape[-1] == self.normalized_shape, f"expected x [*, {self.normalized_shape}], got {tuple(x.shape)}"
        # Statistics in float32 at least: float16 cannot hold the variance of values in the hundreds,
        # bfloat16 cannot locate a mean of 8 finely enough (torch's own convention).
        h = x.to(torch.promote_types(x.dtype, torch.float32))
        mean = h.mean(-1, keepdim=True)  # (*, 1)
        centred = h - mean  # (*, D)
        var = (centred * centred).mean(-1, keepdim=True)  # (*, 1): two-pass, no E[x²] − E[x]² cancellation
        y = centred / torch.sqrt(var + self.eps)  # (*, D): ε inside the root
        y = y * self.weight.to(h.dtype) + self.bias.to(h.dtype)
        return y.to(x.dtype)
