# kata: gqa
# why: torch.where(mask, scores, -inf) with einsum: NaN rows where every key is hidden
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
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.d ** -0.5
        if mask is not None:
            scores = torch.where(mask, scores, torch.tensor(float("-inf"), dtype=scores.dtype, device=scores.device))
        w = torch.softmax(scores, -1)
        out = torch.einsum("bhqk,bhkd->bqhd", w, v).reshape(B, L, C)
        return self.w_o(out), w
