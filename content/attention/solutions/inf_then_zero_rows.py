# kata: attention
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.p = dropout_p

    def forward(self, q, k, v, mask=None):
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(mask.logical_not(), float("-inf"))
        weights = F.softmax(scores, dim=-1)
        if mask is not None:
            has_key = mask.any(dim=-1, keepdim=True)
            weights = torch.where(has_key, weights, torch.zeros_like(weights))
        weights = F.dropout(weights, p=self.p, training=self.training)
        return torch.matmul(weights, v), weights
