# kata: attention
# why: an additive -1e9 mask: in float32, a fully-masked row whose scores lie thousands apart keeps them (float32 steps of 64 at 1e9), in float16 it is -inf
# mistake: none
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
            scores = scores + (~mask).float() * -1e9
        weights = self.dropout(torch.softmax(scores, dim=-1).to(q.dtype))
        return weights @ v, weights
