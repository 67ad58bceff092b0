# kata: kv-cache
# why: a new cache tensor allocated at P + L and filled by slice assignment (old keys, then new), mask from padded blocks
import math

import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError("embed_dim must be a multiple of num_heads")
        self.h = num_heads
        self.d = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        split = lambda t: t.reshape(B, L, self.h, self.d).permute(0, 2, 1, 3)  # noqa: E731
        q, k_new, v_new = split(self.w_q(x)), split(self.w_k(x)), split(self.w_v(x))
        P = 0 if past_kv is None else past_kv[0].shape[2]
        k = k_new.new_empty(B, self.h, P + L, self.d)
        v = v_new.new_empty(B, self.h, P + L, self.d)
        if P:
            k[:, :, :P] = past_kv[0]
            v[:, :, :P] = past_kv[1]
        k[:, :, P:] = k_new
        v[:, :, P:] = v_new
        seen = torch.cat([torch.ones(L, P, dtype=torch.bool, device=x.device),
                          torch.ones(L, L, dtype=torch.bool, device=x.device).tril()], dim=1)
        att = (q @ k.transpose(2, 3)) * self.d ** -0.5
        att = att.masked_fill(~seen, float("-inf")).softmax(dim=-1)
        y = (att @ v).permute(0, 2, 1, 3).reshape(B, L, C)
        return self.w_o(y), (k, v)
