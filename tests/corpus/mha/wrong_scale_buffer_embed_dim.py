# kata: mha
# why: the score scale as a persistent buffer (fine), but 1/sqrt(embed_dim) instead of 1/sqrt(head_dim)
# mistake: scaled_by_embed_dim
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)
        self.register_buffer("scale", torch.tensor(1.0 / math.sqrt(embed_dim), dtype=torch.float64))

    def split(self, t):
        B, L, _ = t.shape
        return t.view(B, L, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        q, k, v = self.split(self.w_q(x)), self.split(self.w_k(x)), self.split(self.w_v(x))
        scores = (q @ k.transpose(-2, -1)) * self.scale.to(q.dtype)
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, L, C)
        return self.w_o(out), weights
