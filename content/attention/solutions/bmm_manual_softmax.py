# kata: attention
import math

import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout_p = dropout_p

    def forward(self, q, k, v, mask=None):
        B, H, Lq, D = q.shape
        Lk = k.shape[2]
        qf = q.reshape(B * H, Lq, D)
        kf = k.reshape(B * H, Lk, D)
        vf = v.reshape(B * H, Lk, v.shape[-1])
        scores = torch.bmm(qf, kf.transpose(1, 2)).div(math.sqrt(D)).view(B, H, Lq, Lk)
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        shifted = scores - scores.amax(dim=-1, keepdim=True)
        e = shifted.exp()
        weights = e / e.sum(dim=-1, keepdim=True)
        if self.training and self.dropout_p > 0:
            keep = torch.rand_like(weights) >= self.dropout_p
            weights = weights * keep / (1 - self.dropout_p)
        out = torch.bmm(weights.reshape(B * H, Lq, Lk), vf).view(B, H, Lq, -1)
        return out, weights
