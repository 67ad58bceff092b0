# kata: gqa
import math

import torch
import torch.nn as nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int):
        super().__init__()
        if embed_dim % num_heads or num_heads % num_kv_heads:
            raise ValueError("embed_dim must divide into num_heads, and num_heads into num_kv_heads")
        self.h, self.g = num_heads, num_kv_heads
        self.d = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, num_kv_heads * self.d)
        self.w_v = nn.Linear(embed_dim, num_kv_heads * self.d)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        r = self.h // self.g
        q = self.w_q(x).view(B, L, self.g, r, self.d)
        k = self.w_k(x).view(B, L, self.g, self.d)
        v = self.w_v(x).view(B, L, self.g, self.d)
        s = torch.einsum("blgrd,bmgd->bgrlm", q, k) / math.sqrt(self.d)
        s = s.reshape(B, self.h, L, L)
        if mask is not None:
            s = s.masked_fill(mask.logical_not(), torch.finfo(s.dtype).min)
        p = s.softmax(-1)
        y = torch.einsum("bgrlm,bmgd->blgrd", p.view(B, self.g, r, L, L), v)
        return self.w_o(y.reshape(B, L, C)), p
