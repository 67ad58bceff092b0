"""Causal self-attention with a key/value cache, for autoregressive decoding.

Vaswani et al., "Attention Is All You Need" (2017), sec. 3.2: causal multi-head self-attention.
A decoder generating token by token recomputes nothing for the tokens it has already seen: the
keys and values of a position depend only on that position's input, so they are computed once,
kept (the KV cache), and each call projects only its new tokens, appends their keys and values,
and lets the new queries attend to everything up to themselves (the cache's cost in memory is
Pope et al. 2022, "Efficiently Scaling Transformer Inference"). A call of L new tokens after P
cached ones gives the last L rows of one causal pass over all P + L tokens.
"""
import math

import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        assert embed_dim % num_heads == 0, f"embed_dim {embed_dim} is not divisible by num_heads {num_heads}"
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, past_kv=None):
        """x (B, L, C): new tokens at positions P .. P+L-1; past_kv = (k, v), each (B, H, P, hd), or None.

        Returns (out (B, L, C), (k, v)), the caches now (B, H, P+L, hd) with the new tokens last.
        """
        B, L, C = x.shape
        H, hd = self.num_heads, self.head_dim
        q = self.w_q(x).view(B, L, H, hd).transpose(1, 2)  # (B, H, L, hd)
        k = self.w_k(x).view(B, L, H, hd).transpose(1, 2)  # (B, H, L, hd)
        v = self.w_v(x).view(B, L, H, hd).transpose(1, 2)  # (B, H, L, hd)
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=2)  # (B, H, P+L, hd): a new tensor, the caller's cache untouched
            v = torch.cat([past_kv[1], v], dim=2)  # (B, H, P+L, hd)
        P = k.size(2) - L
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)  # (B, H, L, P+L)
        # New token i sits at position P + i and sees keys j <= P + i: the cache and itself.
        i = torch.arange(L, device=x.device).unsqueeze(1)  # (L, 1)
        j = torch.arange(P + L, device=x.device).unsqueeze(0)  # (1, P+L)
        scores = scores.masked_fill(j > P + i, float("-inf"))  # every row keeps key 0, so no row is all -inf
        weights = torch.softmax(scores, dim=-1)
        y = weights @ v  # (B, H, L, hd)
        y = y.transpose(1, 2).reshape(B, L, C)  # (B, L, C)
        return self.w_o(y), (k, v)
