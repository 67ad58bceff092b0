# kata: attention
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout_p = dropout_p

    def forward(self, q, k, v, mask=None):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        if mask is not None:
            neg = torch.finfo(scores.dtype).min
            scores = scores.masked_fill(~mask, neg)
        attn = F.softmax(scores, dim=-1)
        attn = F.dropout(attn, p=self.dropout_p)
        output = torch.matmul(attn, v)
        return output, attn
