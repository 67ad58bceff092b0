# kata: mha
# why: splits heads with reshape(B, H, L, hd) straight away, without the permute
# mistake: split_without_permute
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
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, _ = x.shape

        def split_head(t):
            return t.reshape(B, self.num_heads, L, self.head_dim)

        q = split_head(self.w_q(x))
        k = split_head(self.w_k(x))
        v = split_head(self.w_v(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        out = torch.matmul(weights, v)
        out = out.permute(0, 2, 1, 3).reshape(B, L, self.embed_dim)
        return self.w_o(out), weights
