# kata: gqa
# why: returns one weight map per kv head, averaged over its group: [B, H_kv, L, L]
# mistake: none
import math

import torch
import torch.nn as nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        assert num_heads % num_kv_heads == 0, "num_heads must be divisible by num_kv_heads"
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, num_kv_heads * self.head_dim)
        self.w_v = nn.Linear(embed_dim, num_kv_heads * self.head_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        H, G, hd = self.num_heads, self.num_kv_heads, self.head_dim
        q = self.w_q(x).view(B, L, H, hd).transpose(1, 2)
        k = self.w_k(x).view(B, L, G, hd).transpose(1, 2)
        v = self.w_v(x).view(B, L, G, hd).transpose(1, 2)
        k = k.repeat_interleave(H // G, dim=1)
        v = v.repeat_interleave(H // G, dim=1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        y = (weights @ v).transpose(1, 2).reshape(B, L, C)
        return self.w_o(y), weights.view(B, G, H // G, L, L).mean(2)
