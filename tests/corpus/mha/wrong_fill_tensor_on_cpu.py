# kata: mha
# why: the masked-out fill is a full tensor, torch.full(scores.shape, finfo.min, dtype=...), made without device=
# mistake: none
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        q, k, v = (w(x).view(B, L, self.num_heads, self.head_dim).transpose(1, 2) for w in (self.w_q, self.w_k, self.w_v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        if mask is not None:
            fill = torch.full(scores.shape, torch.finfo(scores.dtype).min, dtype=scores.dtype)
            scores = torch.where(mask, scores, fill)
        weights = scores.softmax(dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, L, C)
        return self.w_o(out), weights
