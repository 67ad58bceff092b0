# kata: attention
# why: F.dropout without training=self.training: it still drops weights after .eval()
# mistake: dropout_in_eval
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.p = dropout_p

    def forward(self, q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = F.dropout(torch.softmax(scores, dim=-1), p=self.p)
        return weights @ v, weights
