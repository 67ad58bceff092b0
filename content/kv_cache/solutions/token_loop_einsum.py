# kata: kv-cache
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
        heads = lambda t: t.unflatten(2, (self.n_head, self.head_dim)).transpose(1, 2)  # noqa: E731
        q, k, v = heads(self.w_q(x)), heads(self.w_k(x)), heads(self.w_v(x))
        if past_kv is not None:
            k = torch.cat((past_kv[0], k), dim=-2)
            v = torch.cat((past_kv[1], v), dim=-2)
        P = k.size(-2) - L
        rows = []
        for i in range(L):
            seen = P + i + 1
            s = torch.einsum("bhd,bhjd->bhj", q[:, :, i], k[:, :, :seen]) / math.sqrt(self.head_dim)
            rows.append(torch.einsum("bhj,bhjd->bhd", s.softmax(-1), v[:, :, :seen]))
        y = torch.stack(rows, dim=2)
        return self.w_o(y.transpose(1, 2).flatten(2)), (k, v)
