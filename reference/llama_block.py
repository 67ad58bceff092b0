"""One LLaMA decoder layer, as Hugging Face's `LlamaDecoderLayer` computes it.

Touvron et al., "LLaMA: Open and Efficient Foundation Language Models" (2023), sec. 2.2: a
pre-normalised transformer block with RMSNorm (Zhang & Sennrich 2019), the SwiGLU feed-forward
(Shazeer 2020) and rotary embeddings (Su et al. 2021); LLaMA 2 adds grouped-query attention
(Ainslie et al. 2023). The names are transformers' `modeling_llama.py`, so a state_dict moves both
ways: `input_layernorm`, `self_attn.{q,k,v,o}_proj`, `post_attention_layernorm`,
`mlp.{gate,up,down}_proj`, no biases. RoPE pairs feature i with feature i + head_dim/2
(`rotate_half`), query head h reads kv head h // (H / H_kv) (`repeat_kv`), and the layer is causal.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.eps = eps

    def forward(self, x):
        # No mean subtracted (that would be LayerNorm): scale by the root mean square only.
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate_half(x):
    """(x₁, x₂) -> (−x₂, x₁), the two halves of the last dim."""
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class LlamaAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, num_kv_heads, rope_theta):
        super().__init__()
        self.num_heads, self.num_kv_heads = num_heads, num_kv_heads
        self.head_dim = hidden_size // num_heads
        self.rope_theta = rope_theta
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size, bias=False)

    def rope(self, L, device, dtype):
        """cos, sin (L, hd) at positions 0 … L−1; angles in float64, then x's dtype."""
        hd = self.head_dim
        inv_freq = self.rope_theta ** (-torch.arange(0, hd, 2, dtype=torch.float64, device=device) / hd)  # (hd/2,)
        angles = torch.outer(torch.arange(L, dtype=torch.float64, device=device), inv_freq)  # (L, hd/2)
        angles = torch.cat((angles, angles), dim=-1)  # (L, hd): feature i and i + hd/2 turn together
        return angles.cos().to(dtype), angles.sin().to(dtype)

    def forward(self, x):
        B, L, _ = x.shape
        H, H_kv, hd = self.num_heads, self.num_kv_heads, self.head_dim
        q = self.q_proj(x).view(B, L, H, hd).transpose(1, 2)  # (B, H, L, hd)
        k = self.k_proj(x).view(B, L, H_kv, hd).transpose(1, 2)  # (B, H_kv, L, hd)
        v = self.v_proj(x).view(B, L, H_kv, hd).transpose(1, 2)  # (B, H_kv, L, hd)
        cos, sin = self.rope(L, x.device, x.dtype)
        q = q * cos + rotate_half(q) * sin  # positions enter q and k only, never v
        k = k * cos + rotate_half(k) * sin
        k = k.repeat_interleave(H // H_kv, dim=1)  # (B, H, L, hd): query head h reads kv head h // (H / H_kv)
        v = v.repeat_interleave(H // H_kv, dim=1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)  # (B, H, L, L)
        future = torch.ones(L, L, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(future, torch.finfo(scores.dtype).min)  # causal: no token sees a later one
        weights = torch.softmax(scores, dim=-1)
        y = (weights @ v).transpose(1, 2).reshape(B, L, H * hd)  # (B, L, C): heads side by side
        return self.o_proj(y)


class LlamaMLP(nn.Module):
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
        assert hidden_size % num_heads == 0, f"hidden_size {hidden_size} is not divisible by num_heads {num_heads}"
        assert num_heads % num_kv_heads == 0, f"num_heads {num_heads} is not divisible by num_kv_heads {num_kv_heads}"
        assert (hidden_size // num_heads) % 2 == 0, "RoPE needs an even head_dim"
        self.input_layernorm = LlamaRMSNorm(hidden_size, rms_norm_eps)
        self.self_attn = LlamaAttention(hidden_size, num_heads, num_kv_heads, rope_theta)
        self.post_attention_layernorm = LlamaRMSNorm(hidden_size, rms_norm_eps)
        self.mlp = LlamaMLP(hidden_size, intermediate_size)

    def forward(self, x):
        """x (B, L, C) at positions 0 … L−1. Returns (B, L, C)."""
        h = x + self.self_attn(self.input_layernorm(x))  # pre-norm: the residual carries x itself
        return h + self.mlp(self.post_attention_layernorm(h))
