# kata: gqa
import math

import torch
import torch.nn as nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim must be divisible by num_heads")
        if num_heads % num_kv_heads != 0:
            raise ValueError("num_heads must be divisible by num_kv_heads")
        self.h = num_heads
        self.kv = num_kv_heads
        self.hd = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, num_kv_heads * self.hd)
        self.w_v = nn.Linear(embed_dim, num_kv_heads * self.hd)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        # split into heads: [B, heads, L, hd]
        q = self.w_q(x).reshape(B, self.h, L, self.hd)
        k = self.w_k(x).reshape(B, self.kv, L, self.hd)
        v = self.w_v(x).reshape(B, self.kv, L, self.hd)

        # each kv head serves h // kv consecutive query heads
        k = k.repeat_interleave(self.h // self.kv, dim=1)
        v = v.repeat_interleave(self.h // self.kv, dim=1)

        scores = q @ k.transpose(-2, -1) / math.sqrt(self.hd)
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = scores.softmax(dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, L, C)
        return self.w_o(out), weights
