# kata: llama-block
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Norm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return F.rms_norm(x, (x.shape[-1],), self.weight, self.eps)


class SelfAttention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, theta):
        super().__init__()
        self.n_heads, self.n_kv_heads = n_heads, n_kv_heads
        self.head_dim = dim // n_heads
        self.theta = theta
        self.q_proj = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * self.head_dim, dim, bias=False)

    def rotate(self, t, cos, sin):
        half = self.head_dim // 2
        a, b = t[..., :half], t[..., half:]
        return torch.cat([a * cos - b * sin, b * cos + a * sin], dim=-1)

    def forward(self, x):
        B, T, _ = x.shape
        d = self.head_dim
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        freqs = 1.0 / self.theta ** (torch.arange(0, d, 2, device=x.device, dtype=x.dtype) / d)
        ang = torch.arange(T, device=x.device, dtype=x.dtype)[:, None] * freqs[None, :]
        cos, sin = torch.cos(ang), torch.sin(ang)
        allowed = torch.tril(torch.ones(T, T, dtype=torch.bool, device=x.device))
        group = self.n_heads // self.n_kv_heads
        outs = []
        for h in range(self.n_heads):
            j = h // group
            qh = self.rotate(q[..., h * d:(h + 1) * d], cos, sin)
            kh = self.rotate(k[..., j * d:(j + 1) * d], cos, sin)
            vh = v[..., j * d:(j + 1) * d]
            att = qh @ kh.transpose(1, 2) / math.sqrt(d)
            att = att.masked_fill(~allowed, float("-inf"))
            outs.append(att.softmax(dim=-1) @ vh)
        return self.o_proj(torch.cat(outs, dim=-1))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        g = self.gate_proj(x)
        return self.down_proj(g * torch.sigmoid(g) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden_size, num_heads, num_kv_heads, intermediate_size, rms_norm_eps=1e-6,
                 rope_theta=10000.0):
        super().__init__()
        assert hidden_size % num_heads == 0
        assert num_heads % num_kv_heads == 0
        self.input_layernorm = Norm(hidden_size, rms_norm_eps)
        self.self_attn = SelfAttention(hidden_size, num_heads, num_kv_heads, rope_theta)
        self.post_attention_layernorm = Norm(hidden_size, rms_norm_eps)
        self.mlp = FeedForward(hidden_size, intermediate_size)

    def forward(self, x):
        x = x + self.self_attn(self.input_layernorm(x))
        return x + self.mlp(self.post_attention_layernorm(x))
