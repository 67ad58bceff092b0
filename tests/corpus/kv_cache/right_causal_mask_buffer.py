# kata: kv-cache
# why: nanoGPT's causal mask kept as a persistent buffer (a checkpoint key), cut to the new rows [P, P + L) and every key [0, P + L): buffers are the module's own, neither loaded nor compared
import math

import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, block_size: int = 256):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.w_q = nn.Linear(embed_dim, embed_dim)
        self.w_k = nn.Linear(embed_dim, embed_dim)
        self.w_v = nn.Linear(embed_dim, embed_dim)
        self.w_o = nn.Linear(embed_dim, embed_dim)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x, past_kv=None):
        B, L, C = x.shape
        H, hd = self.num_heads, self.head_dim
        q = self.w_q(x).view(B, L, H, hd).transpose(1, 2)
        k = self.w_k(x).view(B, L, H, hd).transpose(1, 2)
        v = self.w_v(x).view(B, L, H, hd).transpose(1, 2)
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=2)
            v = torch.cat([past_kv[1], v], dim=2)
        T = k.shape[2]
        P = T - L
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        att = att.masked_fill(self.bias[:, :, P:T, :T] == 0, float("-inf"))
        y = torch.softmax(att, dim=-1) @ v
        return self.w_o(y.transpose(1, 2).contiguous().view(B, L, C)), (k, v)
