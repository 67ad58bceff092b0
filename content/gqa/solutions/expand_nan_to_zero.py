# kata: gqa
import math

import torch
import torch.nn as nn


def repeat_kv(t, n_rep):
    B, H_kv, L, hd = t.shape
    if n_rep == 1:
        return t
    return t[:, :, None, :, :].expand(B, H_kv, n_rep, L, hd).reshape(B, H_kv * n_rep, L, hd)


class GroupedQueryAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0 and num_heads % num_kv_heads == 0
        self.n_heads, self.n_kv = num_heads, num_kv_heads
        self.hd = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, self.n_kv * self.hd)
        self.w_v = nn.Linear(embed_dim, self.n_kv * self.hd)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, _ = x.shape
        q = self.w_q(x).view(B, L, self.n_heads, self.hd).permute(0, 2, 1, 3)
        k = self.w_k(x).view(B, L, self.n_kv, self.hd).permute(0, 2, 1, 3)
        v = self.w_v(x).view(B, L, self.n_kv, self.hd).permute(0, 2, 1, 3)
        k, v = repeat_kv(k, self.n_heads // self.n_kv), repeat_kv(v, self.n_heads // self.n_kv)
        att = torch.matmul(q, k.transpose(2, 3)) * (1.0 / math.sqrt(self.hd))
        if mask is not None:
            att = att.masked_fill(mask == 0, float("-inf"))
        att = torch.nan_to_num(torch.softmax(att, dim=-1), nan=0.0)
        out = torch.matmul(att, v).permute(0, 2, 1, 3).contiguous().view(B, L, -1)
        return self.w_o(out), att
