# kata: kv-cache
import math

import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.h = num_heads
        self.d = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        split = lambda t: t.reshape(B, L, self.h, self.d).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.w_q(x)), split(self.w_k(x)), split(self.w_v(x))

        P = 0
        if past_kv is not None:
            k_cache, v_cache = past_kv
            P = k_cache.shape[2]
            k = torch.cat([k, k_cache], dim=2)
            v = torch.cat([v, v_cache], dim=2)

        # token i sits at position P + i: it sees the whole cache and new tokens up to itself
        allowed = torch.ones(L, P + L, dtype=torch.bool, device=x.device).tril(diagonal=P)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.d)
        att = att.masked_fill(~allowed, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, L, C)
        return self.w_o(y), (k, v)
