# kata: kv-cache
# why: the causal test compares key and query indices both counted from 0: right without a cache only
# mistake: mask_ignores_cache
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
        H, D = self.n_head, self.head_dim
        q = self.w_q(x).view(B, L, H, D).permute(0, 2, 1, 3)
        k = self.w_k(x).view(B, L, H, D).permute(0, 2, 1, 3)
        v = self.w_v(x).view(B, L, H, D).permute(0, 2, 1, 3)
        if past_kv is not None:
            k, v = torch.cat([past_kv[0], k], 2), torch.cat([past_kv[1], v], 2)
        T = k.shape[2]
        scores = torch.einsum("bhld,bhtd->bhlt", q, k) / math.sqrt(D)
        visible = torch.arange(T, device=x.device)[None, :] <= torch.arange(L, device=x.device)[:, None]
        scores = scores.masked_fill(~visible, torch.finfo(scores.dtype).min)
        out = torch.einsum("bhlt,bhtd->bhld", scores.softmax(-1), v)
        return self.w_o(out.permute(0, 2, 1, 3).reshape(B, L, C)), (k, v)
