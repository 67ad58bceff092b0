# kata: cross-attention
import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError("embed_dim must be a multiple of num_heads")
        self.n_heads = num_heads
        self.d_head = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, context, mask=None):
        B, Lq, C = x.shape
        Lk = context.shape[1]
        H, d = self.n_heads, self.d_head
        # queries from x, keys/values from the context
        q = self.w_q(x).view(B, Lq, H, d)
        k = self.w_k(context).view(B, Lk, H, d)
        v = self.w_v(context).view(B, Lk, H, d)

        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / d ** 0.5
        if mask is not None:
            scores = torch.where(mask, scores, torch.finfo(scores.dtype).min)
        attn = scores.softmax(dim=-1)

        out = torch.einsum("bhqk,bkhd->bqhd", attn, v)
        return out.reshape(B, Lq, C), attn
