# kata: kv-cache
# why: the cache concatenated on dim 1, the heads of a [B, H, T, hd] cache: breaks as soon as a cache is given
# mistake: none
import math

import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.n_head = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        q = self.w_q(x).view(B, L, self.n_head, self.head_dim).transpose(1, 2)
        k = self.w_k(x).view(B, L, self.n_head, self.head_dim).transpose(1, 2)
        v = self.w_v(x).view(B, L, self.n_head, self.head_dim).transpose(1, 2)
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=1)
            v = torch.cat([past_kv[1], v], dim=1)
        T = k.shape[2]
        mask = torch.ones(L, T, dtype=torch.bool, device=x.device).tril(T - L)
        s = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        s = s.masked_fill(~mask, torch.finfo(s.dtype).min)
        y = s.softmax(-1) @ v
        return self.w_o(y.transpose(1, 2).reshape(B, L, C)), (k, v)
