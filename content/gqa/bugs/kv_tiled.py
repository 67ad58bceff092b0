# kata: gqa
import math

import torch
import torch.nn as nn


def repeat_kv(x, n_rep):
    """[B, H_kv, L, hd] -> [B, H_kv * n_rep, L, hd]"""
    if n_rep == 1:
        return x
    B, n_kv, L, hd = x.shape
    return x[:, None, :, :, :].expand(B, n_rep, n_kv, L, hd).reshape(B, n_kv * n_rep, L, hd)


class GroupedQueryAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        assert num_heads % num_kv_heads == 0, "num_heads must be divisible by num_kv_heads"
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, num_kv_heads * self.head_dim)
        self.w_v = nn.Linear(embed_dim, num_kv_heads * self.head_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        n_rep = self.num_heads // self.num_kv_heads
        q = self.w_q(x).view(B, L, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.w_k(x).view(B, L, self.num_kv_heads, self.head_dim).transpose(1, 2)
        v = self.w_v(x).view(B, L, self.num_kv_heads, self.head_dim).transpose(1, 2)
        k, v = repeat_kv(k, n_rep), repeat_kv(v, n_rep)

        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        attn_weights = torch.softmax(scores, dim=-1)
        out = torch.matmul(attn_weights, v).transpose(1, 2).contiguous().view(B, L, C)
        return self.w_o(out), attn_weights
