# kata: gqa
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GroupedQueryAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
        if num_heads % num_kv_heads != 0:
            raise ValueError(f"num_heads {num_heads} not divisible by num_kv_heads {num_kv_heads}")
        self.H, self.G = num_heads, num_kv_heads
        self.D = embed_dim // num_heads
        for name, out in (("w_q", embed_dim), ("w_k", num_kv_heads * self.D), ("w_v", num_kv_heads * self.D), ("w_o", embed_dim)):
            setattr(self, name, nn.Linear(embed_dim, out))

    def forward(self, x, mask=None):
        B, L, C = x.shape
        heads = lambda t, n: t.unflatten(-1, (n, self.D)).transpose(1, 2)  # noqa: E731
        q = heads(F.linear(x, self.w_q.weight, self.w_q.bias), self.H)
        k = heads(F.linear(x, self.w_k.weight, self.w_k.bias), self.G)
        v = heads(F.linear(x, self.w_v.weight, self.w_v.bias), self.G)
        owner = torch.arange(self.H, device=x.device) // (self.H // self.G)
        k, v = k[:, owner], v[:, owner]
        scores = torch.baddbmm(torch.zeros(1, dtype=x.dtype, device=x.device), q.flatten(0, 1),
                               k.flatten(0, 1).transpose(1, 2), alpha=1 / math.sqrt(self.D)).view(B, self.H, L, L)
        if mask is not None:
            scores = torch.where(mask, scores, torch.finfo(x.dtype).min)
        w = F.softmax(scores, dim=-1)
        y = (w @ v).transpose(1, 2).flatten(2)
        return F.linear(y, self.w_o.weight, self.w_o.bias), w
