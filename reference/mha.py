"""Multi-head self-attention.

Vaswani et al., "Attention Is All You Need" (2017), sec. 3.2.2:
MultiHead(X) = Concat(head_1, ..., head_H) W_O, head_h = Attention(X W_Q^h, X W_K^h, X W_V^h),
each head of size d_k = C / H and scaled by √d_k.
"""
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, f"embed_dim {embed_dim} is not divisible by num_heads {num_heads}"
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        """x (B, L, C); mask bool broadcastable to (B, H, L, L), True = may attend.

        Returns (out (B, L, C), attn_weights (B, H, L, L)).
        """
        B, L, C = x.shape
        H, hd = self.num_heads, self.head_dim
        q = self.w_q(x).view(B, L, H, hd).transpose(1, 2)  # (B, H, L, hd)
        k = self.w_k(x).view(B, L, H, hd).transpose(1, 2)  # (B, H, L, hd)
        v = self.w_v(x).view(B, L, H, hd).transpose(1, 2)  # (B, H, L, hd)
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)  # (B, H, L, L)
        if mask is not None:
            # A finite fill: a query whose keys are all masked gets uniform weights, not NaN.
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        y = weights @ v  # (B, H, L, hd)
        y = y.transpose(1, 2).reshape(B, L, C)  # (B, L, C): heads back side by side
        return self.w_o(y), weights
