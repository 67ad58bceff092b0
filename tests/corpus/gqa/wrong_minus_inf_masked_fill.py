# kata: gqa
# why: masked_fill with float('-inf'): a fully-masked query row softmaxes to NaN
# mistake: nan_fully_masked
import math

import torch
import torch.nn as nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int):
        super().__init__()
        if embed_dim % num_heads or num_heads % num_kv_heads:
            raise ValueError("bad head counts")
        self.h, self.kvh = num_heads, num_kv_heads
        self.d = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, num_kv_heads * self.d)
        self.w_v = nn.Linear(embed_dim, num_kv_heads * self.d)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        q = self.w_q(x).reshape(B, L, self.h, self.d).transpose(1, 2)
        k = self.w_k(x).reshape(B, L, self.kvh, self.d).transpose(1, 2)
        v = self.w_v(x).reshape(B, L, self.kvh, self.d).transpose(1, 2)
        k = k.repeat_interleave(self.h // self.kvh, dim=1)
        v = v.repeat_interleave(self.h // self.kvh, dim=1)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        attn = scores.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, L, C)
        return self.w_o(out), attn
