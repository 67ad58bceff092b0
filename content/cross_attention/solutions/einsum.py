# kata: cross-attention
import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim must be a multiple of num_heads")
        self.h, self.d = num_heads, embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, context, mask=None):
        B, Lq, C = x.shape
        Lk = context.shape[1]
        q = self.w_q(x).view(B, Lq, self.h, self.d)
        k = self.w_k(context).view(B, Lk, self.h, self.d)
        v = self.w_v(context).view(B, Lk, self.h, self.d)
        s = torch.einsum("bqhd,bkhd->bhqk", q, k) / self.d ** 0.5
        if mask is not None:
            s = torch.where(mask, s, torch.finfo(s.dtype).min)
        a = torch.softmax(s, dim=-1)
        o = torch.einsum("bhqk,bkhd->bqhd", a, v).reshape(B, Lq, C)
        return self.w_o(o), a
