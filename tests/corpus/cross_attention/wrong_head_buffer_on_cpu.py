# kata: cross-attention
# why: heads computed one by one into torch.zeros(B, Lq, C), a buffer made on the CPU, which then meets w_o's weights on the GPU
# mistake: none
import math

import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, context, mask=None):
        B, Lq, C = x.shape
        Lk, H, hd = context.shape[1], self.num_heads, self.head_dim
        q = self.w_q(x).view(B, Lq, H, hd).transpose(1, 2)
        k = self.w_k(context).view(B, Lk, H, hd).transpose(1, 2)
        v = self.w_v(context).view(B, Lk, H, hd).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = scores.softmax(dim=-1)
        merged = torch.zeros(B, Lq, C, dtype=x.dtype)
        for h in range(H):
            merged[:, :, h * hd:(h + 1) * hd] = weights[:, h] @ v[:, h]
        return self.w_o(merged), weights
