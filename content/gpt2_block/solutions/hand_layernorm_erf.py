# kata: gpt2-block
import math

import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = (x - mean).pow(2).mean(dim=-1, keepdim=True)  # biased, as nn.LayerNorm
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias


def gelu(u):
    return 0.5 * u * (1.0 + torch.erf(u / math.sqrt(2.0)))  # the exact form


class Attention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        if n_embd % n_head != 0:
            raise ValueError(f"n_head={n_head} does not divide n_embd={n_embd}")
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, x):
        B, T, C = x.shape
        H, D = self.n_head, C // self.n_head
        q, k, v = self.c_attn(x).view(B, T, 3, H, D).permute(2, 0, 3, 1, 4)  # each [B, H, T, D]
        scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(D)
        visible = torch.arange(T, device=x.device)[None, :] <= torch.arange(T, device=x.device)[:, None]
        scores = scores.masked_fill(~visible, float("-inf"))
        out = torch.einsum("bhts,bhsd->bhtd", scores.softmax(dim=-1), v)
        return self.c_proj(out.permute(0, 2, 1, 3).reshape(B, T, C))


class FeedForward(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.c_proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return self.c_proj(gelu(self.c_fc(x)))


class GPT2Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.ln_1 = LayerNorm(n_embd)
        self.attn = Attention(n_embd, n_head)
        self.ln_2 = LayerNorm(n_embd)
        self.mlp = FeedForward(n_embd)

    def forward(self, x):
        h = x + self.attn(self.ln_1(x))
        return h + self.mlp(self.ln_2(h))
