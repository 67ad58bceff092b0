"""Grouped-query attention.

Ainslie et al., "GQA: Training Generalized Multi-Query Transformer Models from Multi-Head
Checkpoints" (2023), sec. 2.2: the H query heads are split into H_kv groups, and each group shares
one key head and one value head. H_kv = 1 is multi-query attention (Shazeer 2019, "Fast Transformer
Decoding: One Write-Head is All You Need"); H_kv = H is multi-head attention (Vaswani et al. 2017).
A group is H / H_kv *consecutive* query heads, so query head h reads kv head h // (H / H_kv)
(Hugging Face's `repeat_kv`).
"""
import math

import torch
import torch.nn as nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, num_kv_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, f"embed_dim {embed_dim} is not divisible by num_heads {num_heads}"
        assert num_heads % num_kv_heads == 0, f"num_heads {num_heads} is not divisible by num_kv_heads {num_kv_heads}"
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = embed_dim // num_heads
        self.group_size = num_heads // num_kv_heads  # query heads per kv head
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, num_kv_heads * self.head_dim)
        self.w_v = nn.Linear(embed_dim, num_kv_heads * self.head_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        """x (B, L, C); mask bool broadcastable to (B, H, L, L), True = may attend.

        Returns (out (B, L, C), attn_weights (B, H, L, L)).
        """
        B, L, C = x.shape
        H, H_kv, hd = self.num_heads, self.num_kv_heads, self.head_dim
        q = self.w_q(x).view(B, L, H, hd).transpose(1, 2)  # (B, H, L, hd)
        k = self.w_k(x).view(B, L, H_kv, hd).transpose(1, 2)  # (B, H_kv, L, hd)
        v = self.w_v(x).view(B, L, H_kv, hd).transpose(1, 2)  # (B, H_kv, L, hd)
        # Each kv head serves the group_size consecutive query heads of its group.
        k = k.repeat_interleave(self.group_size, dim=1)  # (B, H, L, hd)
        v = v.repeat_interleave(self.group_size, dim=1)  # (B, H, L, hd)
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)  # (B, H, L, L)
        if mask is not None:
            # A finite fill: a query whose keys are all masked gets uniform weights, not NaN.
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        y = weights @ v  # (B, H, L, hd)
        y = y.transpose(1, 2).reshape(B, L, C)  # (B, L, C): heads back side by side
        return self.w_o(y), weights
