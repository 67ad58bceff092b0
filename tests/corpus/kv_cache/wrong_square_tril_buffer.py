# kata: kv-cache
# why: nanoGPT's registered (persistent) tril buffer cut to [L, L]: it ignores the cache (and breaks on a chunk after a prefill)
# mistake: none
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
        self.register_buffer("bias", torch.tril(torch.ones(64, 64)).view(1, 1, 64, 64))

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        H, hd = self.num_heads, self.head_dim
        q = self.w_q(x).view(B, L, H, hd).transpose(1, 2)
        k = self.w_k(x).view(B, L, H, hd).transpose(1, 2)
        v = self.w_v(x).view(B, L, H, hd).transpose(1, 2)
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=2)
            v = torch.cat([past_kv[1], v], dim=2)
        P = k.shape[2] - L
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)
        scores = scores.masked_fill(self.bias[:, :, :L, :L] == 0, float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v
        return self.w_o(y.transpose(1, 2).reshape(B, L, C)), (k, v)
