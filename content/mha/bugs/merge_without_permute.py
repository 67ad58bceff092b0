# kata: mha
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        # [B, L, C] -> [B, L, H, d_k] -> [B, H, L, d_k]
        q = self.w_q(x).view(B, L, self.num_heads, self.d_k).transpose(1, 2)
        k = self.w_k(x).view(B, L, self.num_heads, self.d_k).transpose(1, 2)
        v = self.w_v(x).view(B, L, self.num_heads, self.d_k).transpose(1, 2)

        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, torch.finfo(scores.dtype).min)
        attn = F.softmax(scores, dim=-1)

        context = attn @ v
        context = context.contiguous().view(B, L, C)
        return self.w_o(context), attn
