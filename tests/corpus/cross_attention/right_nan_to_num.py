# kata: cross-attention
# why: -inf fill, then torch.nan_to_num turns fully-masked rows (NaN) into zero weights
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim % num_heads != 0"
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, context, mask=None):
        B, Lq, C = x.shape

        def split(t):
            return t.view(B, -1, self.num_heads, self.head_dim).transpose(1, 2)

        q, k, v = split(self.w_q(x)), split(self.w_k(context)), split(self.w_v(context))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        attn = torch.nan_to_num(F.softmax(scores, dim=-1), nan=0.0)
        out = (attn @ v).transpose(1, 2).reshape(B, Lq, C)
        return self.w_o(out), attn
