# kata: attention
import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout_p: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, q, k, v, mask=None):
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * q.shape[-1] ** -0.5
        if mask is not None:
            scores = torch.where(mask, scores, torch.finfo(scores.dtype).min)
        attn = self.dropout(scores.softmax(dim=-1))
        return torch.einsum("bhqk,bhkd->bhqd", attn, v), attn
