# kata: kv-cache
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

    def _split(self, t):
        B, L, _ = t.shape
        return t.view(B, L, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        q = self._split(self.w_q(x))
        k = self._split(self.w_k(x))
        v = self._split(self.w_v(x))
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=2)
            v = torch.cat([past_kv[1], v], dim=2)
        T = k.shape[2]  # cached + new

        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)  # [B, H, L, T]
        q_pos = torch.arange(L, device=x.device)[:, None]
        k_pos = torch.arange(T, device=x.device)[None, :]
        scores = torch.where(k_pos <= q_pos, scores, float("-inf"))
        attn = torch.softmax(scores, dim=-1)

        y = (attn @ v).transpose(1, 2).reshape(B, L, C)
        return self.w_o(y), (k, v)
