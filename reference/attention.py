"""Scaled dot-product attention with a boolean mask and dropout on the weights.

Vaswani et al., "Attention Is All You Need" (2017), eq. 1:
Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V, with dropout on the attention weights (sec. 5.4).
"""
import math

import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        assert 0.0 <= dropout_p < 1.0, f"dropout_p must be in [0, 1), got {dropout_p}"
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        """q (B, H, Lq, D), k (B, H, Lk, D), v (B, H, Lk, Dv); mask bool, True = may attend.

        Returns (output (B, H, Lq, Dv), attn_weights (B, H, Lq, Lk)), the weights after dropout.
        """
        D = q.size(-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(D)  # (B, H, Lq, Lk)
        if mask is not None:
            # A finite fill: a query whose keys are all masked gets uniform weights, not NaN.
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)  # after the softmax, on the weights
        return weights @ v, weights
