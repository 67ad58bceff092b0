# kata: mha
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError(f"{embed_dim=} is not divisible by {num_heads=}")
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
        v = self.w_v(x).view(B, L, self.h, self.d)
        scores = torch.einsum("blhd,bmhd->bhlm", q, k) / self.d ** 0.5
        if mask is not None:
            scores = torch.where(mask, scores, torch.finfo(scores.dtype).min)
        attn = scores.softmax(-1)
        out = torch.einsum("bhlm,bmhd->blhd", attn, v).reshape(B, L, C)
        return self.w_o(out), attn
