# kata: cross-attention
import math

import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def _split(self, t):
        # [B, L, C] -> [B, H, L, head_dim]
        B, L, _ = t.shape
        return t.view(B, L, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x, context, mask=None):
        # x: decoder side [B, Lq, C], context: encoder output [B, Lk, C]
        B, Lq, C = x.shape
        q = self._split(self.w_q(x))
        k = self._split(self.w_k(x))
        v = self._split(self.w_v(x))

        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)  # [B, H, Lq, Lk]
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)

        out = (weights @ v).transpose(1, 2).reshape(B, Lq, C)
        return self.w_o(out), weights
