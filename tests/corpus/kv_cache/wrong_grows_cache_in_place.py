# kata: kv-cache
# why: grows the caller's cache through .data and returns it: right once, wrong when a cache is continued twice
# mistake: cache_changed_in_place
import math

import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        H, hd = self.num_heads, self.head_dim
        q = self.w_q(x).view(B, L, H, hd).transpose(1, 2)
        k = self.w_k(x).view(B, L, H, hd).transpose(1, 2)
        v = self.w_v(x).view(B, L, H, hd).transpose(1, 2)
        if past_kv is not None:
            past_kv[0].data = torch.cat([past_kv[0].data, k.data], dim=2)
            past_kv[1].data = torch.cat([past_kv[1].data, v.data], dim=2)
            k, v = past_kv
        P = k.shape[2] - L
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)
        mask = torch.ones(L, P + L, dtype=torch.bool, device=x.device).tril(diagonal=P)
        scores = scores.masked_fill(~mask, float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v
        return self.w_o(y.transpose(1, 2).reshape(B, L, C)), (k, v)
