# kata: attention
# why: a hand-written softmax without subtracting the max: exp() overflows on large scores
# mistake: naive_softmax
import math

import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        e = torch.exp(scores)
        weights = self.dropout(e / e.sum(dim=-1, keepdim=True))
        return weights @ v, weights
