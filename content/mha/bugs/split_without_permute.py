# kata: mha
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        # Q K V projections
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        # output projection
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def split_heads(self, t):
        # [B, L, C] -> [B, H, L, head_dim]
        B, L, C = t.shape
        return t.reshape(B, self.num_heads, L, self.head_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        q = self.split_heads(self.w_q(x))
        k = self.split_heads(self.w_k(x))
        v = self.split_heads(self.w_v(x))

        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)  # [B, H, L, L]
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        attn = torch.softmax(scores, dim=-1)

        out = torch.matmul(attn, v)  # [B, H, L, head_dim]
        out = out.permute(0, 2, 1, 3).reshape(B, L, C)  # concat heads
        return self.w_o(out), attn
