# kata: attention
# why: the notes' version with the fill chosen per dtype: -1e9 overflows float16, so -1e4 there
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        d = q.shape[-1]
        scores = q @ k.transpose(-1, -2) / math.sqrt(d)
        if mask is not None:
            fill = -1e4 if scores.dtype == torch.float16 else -1e9
            scores = scores.masked_fill_(~mask.bool(), fill)
        attn_weights = F.softmax(scores, dim=-1)
        attn_weights = self.dropout(attn_weights)
        output = attn_weights @ v
        return output, attn_weights
