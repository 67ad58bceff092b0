# kata: gqa
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
        hd = self.head_dim
        per_group = self.num_heads // self.num_kv_heads
        q, k, v = self.w_q(x), self.w_k(x), self.w_v(x)
        if mask is not None:
            mask = mask.expand(B, self.num_heads, L, L)

        heads, weights = [], []
        for h in range(self.num_heads):
            j = h // per_group  # the kv head this query head reads
            qh = q[..., h * hd:(h + 1) * hd]
            kh = k[..., j * hd:(j + 1) * hd]
            vh = v[..., j * hd:(j + 1) * hd]
            scores = qh @ kh.transpose(1, 2) / math.sqrt(hd)  # [B, L, L]
            if mask is not None:
                scores = torch.where(mask[:, h], torch.finfo(scores.dtype).min, scores)
            w = torch.softmax(scores, dim=-1)
            heads.append(w @ vh)
            weights.append(w)
        return self.w_o(torch.cat(heads, dim=-1)), torch.stack(weights, dim=1)
