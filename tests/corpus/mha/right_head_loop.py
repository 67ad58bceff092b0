# kata: mha
# why: a Python loop over heads, slicing each head's columns, then torch.cat; -1e4 fill for float16 only
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        q, k, v = self.w_q(x), self.w_k(x), self.w_v(x)
        outs, weights = [], []
        for h in range(self.num_heads):
            cols = slice(h * self.head_dim, (h + 1) * self.head_dim)
            s = q[..., cols] @ k[..., cols].transpose(1, 2) / math.sqrt(self.head_dim)  # [B, L, L]
            if mask is not None:
                m = mask.expand(x.shape[0], self.num_heads, x.shape[1], x.shape[1])[:, h]
                s = s.masked_fill(~m, -1e4 if s.dtype == torch.float16 else -1e9)
            w = F.softmax(s, dim=-1)
            outs.append(w @ v[..., cols])
            weights.append(w)
        return self.w_o(torch.cat(outs, dim=-1)), torch.stack(weights, dim=1)
