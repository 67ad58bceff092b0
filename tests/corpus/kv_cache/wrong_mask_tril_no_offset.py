# kata: kv-cache
# why: the [L, T] mask from torch.tril with diagonal 0: the cache offset is left out, so each query sees only the first keys
# mistake: mask_ignores_cache
import math

import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.h = num_heads
        self.d = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def _heads(self, t):
        B, L, _ = t.shape
        return t.reshape(B, L, self.h, self.d).transpose(1, 2)

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        q, k, v = self._heads(self.w_q(x)), self._heads(self.w_k(x)), self._heads(self.w_v(x))
        if past_kv is not None:
            past_k, past_v = past_kv
            k = torch.cat((past_k, k), dim=-2)
            v = torch.cat((past_v, v), dim=-2)
        T = k.size(-2)
        allowed = torch.tril(torch.ones(L, T, device=x.device)).bool()
        scores = q @ k.transpose(-1, -2) * (1.0 / math.sqrt(self.d))
        scores = torch.where(allowed, scores, torch.full_like(scores, float("-inf")))
        attn = torch.softmax(scores, dim=-1)
        y = (attn @ v).transpose(1, 2).reshape(B, L, C)
        return self.w_o(y), (k, v)
