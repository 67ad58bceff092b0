# kata: cross-attention
# why: keys and values projected from x, as in self-attention: the context is never read
# mistake: kv_from_x
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, context, mask=None):
        B, Lq, _ = x.shape
        Lk = context.shape[1]
        q = self.w_q(x).reshape(B, Lq, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        k = self.w_k(x).reshape(B, Lq, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        v = self.w_v(x).reshape(B, Lq, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        scores = torch.matmul(q, k.transpose(-1, -2)) * self.head_dim ** -0.5
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = F.softmax(scores, dim=-1)
        out = torch.matmul(weights, v)
        out = out.permute(0, 2, 1, 3).reshape(B, Lq, self.embed_dim)
        return self.w_o(out), weights
