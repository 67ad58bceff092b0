"""The SwiGLU feed-forward block of LLaMA.

Shazeer, "GLU Variants Improve Transformer" (2020), eq. 6:
FFN_SwiGLU(x, W, V, W₂) = (Swish₁(xW) ⊗ xV) W₂, Swish₁(a) = SiLU(a) = a · σ(a), biases dropped.
LLaMA's names: w1 = W (the gate), w3 = V (the up projection), w2 = W₂ (the down projection).
"""
import torch.nn as nn
import torch.nn.functional as F


class SwiGLU(nn.Module):
    def __init__(self, dim: int, hidden_dim: int):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)  # gate
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)  # up
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)  # down

    def forward(self, x):
        """x (*, dim) -> (*, dim): any leading dims, none included."""
        return self.w2(F.silu(self.w1(x)) * self.w3(x))  # (*, hidden) gated, then back to (*, dim)
