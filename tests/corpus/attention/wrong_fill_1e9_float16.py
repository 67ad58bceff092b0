# kata: attention
# why: the notes' -1e9 fill: fine in float32, but masked_fill cannot put -1e9 into a float16 tensor
# mistake: none
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
            scores = scores.masked_fill_(~mask.bool(), -1e9)
        attn_weights = F.softmax(scores, dim=-1)
        attn_weights = self.dropout(attn_weights)
        return attn_weights @ v, attn_weights
