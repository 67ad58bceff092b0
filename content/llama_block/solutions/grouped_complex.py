# kata: llama-block
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, hidden_size, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.eps = eps

    def forward(self, x):
        rms = torch.sqrt(torch.mean(x * x, dim=-1, keepdim=True) + self.eps)
        return self.weight * (x / rms)


class Attention(nn.Module):
    def __init__(self, hidden_size, num_heads, num_kv_heads, rope_theta):
        super().__init__()
        self.num_heads, self.num_kv_heads = num_heads, num_kv_heads
        self.head_dim = hidden_size // num_heads
        self.rope_theta = rope_theta
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size, bias=False)

    def rope(self, t):
        # t [..., L, hd]: feature i is the real part, feature i + hd/2 the imaginary part
        L, half = t.shape[-2], self.head_dim // 2
        freqs = self.rope_theta ** (-torch.arange(half, dtype=torch.float64, device=t.device) * 2 / self.head_dim)
        rot = torch.polar(torch.ones(L, half, dtype=torch.float64, device=t.device),
                          torch.arange(L, dtype=torch.float64, device=t.device)[:, None] * freqs)
        z = torch.complex(t[..., :half].double(), t[..., half:].double()) * rot
        return torch.cat((z.real, z.imag), dim=-1).to(t.dtype)

    def forward(self, x):
        B, L, C = x.shape
        G, R, d = self.num_kv_heads, self.num_heads // self.num_kv_heads, self.head_dim
        q = self.rope(self.q_proj(x).view(B, L, G, R, d).permute(0, 2, 3, 1, 4))  # B G R L d
        k = self.rope(self.k_proj(x).view(B, L, G, d).permute(0, 2, 1, 3))  # B G L d
        v = self.v_proj(x).view(B, L, G, d).permute(0, 2, 1, 3)
        s = torch.einsum("bgrld,bgmd->bgrlm", q, k) / math.sqrt(d)
        s = s + torch.full((L, L), -1e30, dtype=s.dtype, device=x.device).triu(1)
        out = torch.einsum("bgrlm,bgmd->bgrld", s.softmax(-1), v)
        return self.o_proj(out.permute(0, 3, 1, 2, 4).reshape(B, L, C))


class MLP(nn.Module):
    def __init__(self, hidden_size, intermediate_size):
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden_size, num_heads, num_kv_heads, intermediate_size, rms_norm_eps=1e-6,
                 rope_theta=10000.0):
        super().__init__()
        if hidden_size % num_heads or num_heads % num_kv_heads:
            raise ValueError("head counts do not divide")
        self.input_layernorm = RMSNorm(hidden_size, rms_norm_eps)
        self.self_attn = Attention(hidden_size, num_heads, num_kv_heads, rope_theta)
        self.post_attention_layernorm = RMSNorm(hidden_size, rms_norm_eps)
        self.mlp = MLP(hidden_size, intermediate_size)

    def forward(self, x):
        h = x + self.self_attn(self.input_layernorm(x))
        return h + self.mlp(self.post_attention_layernorm(h))
