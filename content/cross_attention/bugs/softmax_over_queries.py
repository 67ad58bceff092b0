# kata: cross-attention
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, context, mask=None):
        B, Lq, C = x.shape
        Lk = context.size(1)

        q = self.w_q(x).reshape(B, Lq, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        k = self.w_k(context).reshape(B, Lk, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        v = self.w_v(context).reshape(B, Lk, self.num_heads, self.head_dim).permute(0, 2, 1, 3)

        # [B, H, Lq, Lk]
        scores = torch.matmul(q, k.permute(0, 1, 3, 2)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        attn = F.softmax(scores, dim=2)

        out = torch.matmul(attn, v).permute(0, 2, 1, 3).reshape(B, Lq, C)
        out = self.w_o(out)
        return out, attn
