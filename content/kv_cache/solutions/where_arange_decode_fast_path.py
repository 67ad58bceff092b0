# kata: kv-cache
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, f"{embed_dim} % {num_heads} != 0"
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.w_q, self.w_k = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)
        self.w_v, self.w_o = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        q = self.w_q(x).view(B, L, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.w_k(x).view(B, L, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.w_v(x).view(B, L, self.num_heads, self.head_dim).transpose(1, 2)
        if past_kv is not None:
            past_k, past_v = past_kv
            k, v = torch.cat([past_k, k], 2), torch.cat([past_v, v], 2)
        T = k.shape[2]
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        if L > 1:
            pos_q = torch.arange(T - L, T, device=x.device).view(L, 1)
            pos_k = torch.arange(T, device=x.device).view(1, T)
            scores = torch.where(pos_k <= pos_q, scores, torch.full_like(scores, float("-inf")))
        out = torch.matmul(F.softmax(scores, dim=-1), v)
        out = out.transpose(1, 2).contiguous().view(B, L, C)
        return self.w_o(out), (k, v)
