# kata: mha
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads = num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, L, C = x.shape
        H = self.num_heads
        W = torch.cat([self.w_q.weight, self.w_k.weight, self.w_v.weight], dim=0)
        b = torch.cat([self.w_q.bias, self.w_k.bias, self.w_v.bias], dim=0)
        qkv = F.linear(x, W, b).view(B, L, 3, H, C // H).permute(2, 0, 3, 1, 4)  # [3, B, H, L, hd]
        q, k, v = qkv.unbind(0)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        if mask is not None:
            att = att.masked_fill(mask == 0, torch.finfo(att.dtype).min)
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, L, C)
        return self.w_o(y), att
