# kata: mha
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError(f"embed_dim={embed_dim} not divisible by num_heads={num_heads}")
        self.h = num_heads
        self.d = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        q = self.w_q(x).view(B, L, self.h, self.d)
        k = self.w_k(x).view(B, L, self.h, self.d)
        v = self.w_k(x).view(B, L, self.h, self.d)

        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) * self.d ** -0.5
        if mask is not None:
            scores = torch.where(mask, scores, torch.finfo(scores.dtype).min)
        attn = scores.softmax(dim=-1)

        out = torch.einsum("bhqk,bkhd->bqhd", attn, v).reshape(B, L, C)
        return self.w_o(out), attn
