# kata: attention
import math

import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        d = q.shape[-1]
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(d)
        if mask is not None:
            # keep the allowed positions, push the rest far down before the softmax
            scores = torch.where(mask, scores, -1e9)
        weights = self.dropout(scores.softmax(dim=-1))
        out = torch.einsum("bhqk,bhkd->bhqd", weights, v)
        return out, weights
