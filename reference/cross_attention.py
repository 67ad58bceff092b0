"""Multi-head cross-attention: queries from one sequence, keys and values from another.

Vaswani et al., "Attention Is All You Need" (2017), sec. 3.2.3 ("encoder-decoder attention"):
the queries come from the decoder x, the keys and values from the encoder output (the context).
"""
import math

import torch
import torch.nn as nn


class CrossAttention(nn.Module):
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

    def forward(self, x, context, mask=None):
        """x (B, Lq, C), context (B, Lk, C); mask bool broadcastable to (B, H, Lq, Lk).

        Returns (out (B, Lq, C), attn_weights (B, H, Lq, Lk)).
        """
        B, Lq, C = x.shape
        Lk = context.size(1)
        H, hd = self.num_heads, self.head_dim
        q = self.w_q(x).view(B, Lq, H, hd).transpose(1, 2)  # (B, H, Lq, hd)
        k = self.w_k(context).view(B, Lk, H, hd).transpose(1, 2)  # (B, H, Lk, hd)
        v = self.w_v(context).view(B, Lk, H, hd).transpose(1, 2)  # (B, H, Lk, hd)
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)  # (B, H, Lq, Lk)
        if mask is not None:
            # A finite fill: a query whose keys are all masked gets uniform weights, not NaN.
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        y = weights @ v  # (B, H, Lq, hd)
        y = y.transpose(1, 2).reshape(B, Lq, C)  # (B, Lq, C): heads back side by side
        return self.w_o(y), weights
