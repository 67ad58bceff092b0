# kata: kv-cache
# why: the cache kept as [B, L, H, hd] and concatenated on dim 1, before the transpose
# mistake: cache_on_wrong_dim
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
        k = self.w_k(x).view(B, L, H, hd)
        v = self.w_v(x).view(B, L, H, hd)
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=1)
            v = torch.cat([past_kv[1], v], dim=1)
        P = k.shape[1] - L
        scores = q @ k.permute(0, 2, 3, 1) / math.sqrt(hd)
        mask = torch.ones(L, P + L, dtype=torch.bool, device=x.device).tril(diagonal=P)
        scores = scores.masked_fill(~mask, float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v.transpose(1, 2)
        return self.w_o(y.transpose(1, 2).reshape(B, L, C)), (k, v)
