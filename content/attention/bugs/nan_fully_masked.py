# kata: attention
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        scale = q.size(-1) ** -0.5
        attn_score = q @ k.transpose(-1, -2) * scale  # [B, H, Lq, Lk]

        # masked positions get -inf so the softmax gives them weight 0
        if mask is not None:
            attn_score = attn_score.masked_fill(mask == 0, float("-inf"))

        attn_weight = F.softmax(attn_score, dim=-1)
        attn_weight = self.dropout(attn_weight)
        return attn_weight @ v, attn_weight
