# kata: attention
import math

import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        # q: [B, H, Lq, D], k: [B, H, Lk, D], v: [B, H, Lk, Dv]
        scores = torch.matmul(q, k.transpose(-2, -1))  # [B, H, Lq, Lk]
        if mask is not None:
            # mask is True where the query may attend
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        attn = torch.softmax(scores, dim=-1)
        attn = self.dropout(attn)
        out = torch.matmul(attn, v)  # [B, H, Lq, Dv]
        return out, attn
