# kata: mha
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


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

    def forward(self, x, mask=None):
        B, L, _ = x.shape
        q = self.w_q(x).reshape(B, L, self.num_heads, self.head_dim).permute(0, 2, 1, 3)  # [B, H, L, hd]
        k = self.w_k(x).reshape(B, L, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        v = self.w_v(x).reshape(B, L, self.num_heads, self.head_dim).permute(0, 2, 1, 3)

        scale = self.head_dim ** (-0.5)
        attn_score = torch.matmul(q, k.transpose(-1, -2)) * scale  # [B, H, L, L]
        # -inf where the mask is False: weight 0 after the softmax
        if mask is not None:
            attn_score = attn_score.masked_fill(~mask, float("-inf"))
        attn_weight = F.softmax(attn_score, dim=-1)

        out = torch.matmul(attn_weight, v)  # [B, H, L, hd]
        out = out.permute(0, 2, 1, 3).reshape(B, L, self.embed_dim)  # concat heads
        return self.w_o(out), attn_weight
