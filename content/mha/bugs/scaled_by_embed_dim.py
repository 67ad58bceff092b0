# kata: mha
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, _ = x.shape
        q, k, v = self.w_q(x), self.w_k(x), self.w_v(x)
        if mask is not None:
            mask = mask.expand(B, self.num_heads, L, L)

        scale = 1.0 / math.sqrt(self.embed_dim)
        head_outputs, head_weights = [], []
        for h in range(self.num_heads):
            # each head owns a contiguous slice of the projected features
            cols = slice(h * self.head_dim, (h + 1) * self.head_dim)
            s = torch.bmm(q[:, :, cols], k[:, :, cols].transpose(1, 2)) * scale  # [B, L, L]
            if mask is not None:
                s = s.masked_fill(~mask[:, h], torch.finfo(s.dtype).min)
            w = s.softmax(dim=-1)
            head_outputs.append(torch.bmm(w, v[:, :, cols]))
            head_weights.append(w)

        out = torch.cat(head_outputs, dim=-1)  # [B, L, C]
        return self.w_o(out), torch.stack(head_weights, dim=1)
