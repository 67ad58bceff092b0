# kata: attention
# why: hand-rolled dropout that zeroes weights but forgets to scale the survivors by 1/(1-p)
# mistake: dropout_unscaled
import math

import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.p = dropout_p

    def forward(self, q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        if self.training:
            weights = weights * (torch.rand_like(weights) >= self.p)
        return weights @ v, weights
