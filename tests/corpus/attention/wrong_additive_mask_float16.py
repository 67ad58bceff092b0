# kata: attention
# why: Hugging Face BERT's additive mask, scores + (1 - mask) * finfo.min: in float16 a fully-masked row with large scores rounds into peaks or -inf
# mistake: additive_mask
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
            scores = scores + (1.0 - mask.to(scores.dtype)) * torch.finfo(scores.dtype).min
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return weights @ v, weights
