# kata: kv-cache
# why: an [L, L] causal mask (triu, diagonal 1) that only fits when there is no cache: it raises on every call with a cache and L > 1 and is right on the rest, so it fails no case by its values and no mistake can be named from a crash alone
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
        q, k, v = (w(x).view(B, L, self.n_head, self.head_dim).transpose(1, 2) for w in (self.w_q, self.w_k, self.w_v))
        if past_kv is not None:
            k = torch.cat((past_kv[0], k), dim=2)
            v = torch.cat((past_kv[1], v), dim=2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        future = torch.triu(torch.ones(L, L, device=x.device, dtype=torch.bool), diagonal=1)
        att = att.masked_fill(future, float("-inf"))
        y = torch.softmax(att, dim=-1) @ v
        return self.w_o(y.transpose(1, 2).contiguous().view(B, L, C)), (k, v)
