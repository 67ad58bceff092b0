# kata: cross-attention
# why: an additive mask, scores + (~mask) * finfo.min: in float16 the padded queries' far-apart scores survive it (peaks or -inf)
# mistake: additive_mask
import math

import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.h, self.d = num_heads, embed_dim // num_heads
        self.w_q, self.w_k = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)
        self.w_v, self.w_o = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)

    def forward(self, x, context, mask=None):
        B, Lq, C = x.shape
        Lk = context.shape[1]
        q = self.w_q(x).view(B, Lq, self.h, self.d).transpose(1, 2)
        k = self.w_k(context).view(B, Lk, self.h, self.d).transpose(1, 2)
        v = self.w_v(context).view(B, Lk, self.h, self.d).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d)
        if mask is not None:
            scores = scores + (~mask).to(scores.dtype) * torch.finfo(scores.dtype).min
        weights = torch.softmax(scores, dim=-1)
        return self.w_o((weights @ v).transpose(1, 2).reshape(B, Lq, C)), weights
