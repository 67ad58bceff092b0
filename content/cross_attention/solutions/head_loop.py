# kata: cross-attention
import math

import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads = num_heads
        self.hd = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, context, mask=None):
        B, Lq, _ = x.shape
        Lk = context.shape[1]
        q, k, v = self.w_q(x), self.w_k(context), self.w_v(context)
        if mask is not None:
            mask = mask.expand(B, self.num_heads, Lq, Lk)
        heads, maps = [], []
        for h in range(self.num_heads):
            sl = slice(h * self.hd, (h + 1) * self.hd)
            s = torch.bmm(q[:, :, sl], k[:, :, sl].transpose(1, 2)) / math.sqrt(self.hd)
            if mask is not None:
                s = s.masked_fill(~mask[:, h], torch.finfo(s.dtype).min)
            a = s.softmax(dim=-1)
            heads.append(torch.bmm(a, v[:, :, sl]))
            maps.append(a)
        return self.w_o(torch.cat(heads, dim=-1)), torch.stack(maps, dim=1)
