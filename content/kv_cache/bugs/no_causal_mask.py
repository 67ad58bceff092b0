# kata: kv-cache
import math

import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.n_head = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        q = self.w_q(x).reshape(B, L, self.n_head, self.head_dim).permute(0, 2, 1, 3)
        k = self.w_k(x).reshape(B, L, self.n_head, self.head_dim).permute(0, 2, 1, 3)
        v = self.w_v(x).reshape(B, L, self.n_head, self.head_dim).permute(0, 2, 1, 3)

        if past_kv is not None:
            past_k, past_v = past_kv
            k = torch.cat((past_k, k), dim=-2)
            v = torch.cat((past_v, v), dim=-2)
        present = (k, v)

        att = torch.einsum("bhqd,bhkd->bhqk", q, k) * (1.0 / math.sqrt(self.head_dim))
        att = att.softmax(dim=-1)
        y = torch.einsum("bhqk,bhkd->bhqd", att, v)
        y = y.permute(0, 2, 1, 3).reshape(B, L, C)
        return self.w_o(y), present
