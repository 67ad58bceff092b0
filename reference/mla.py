"""Multi-head latent attention (MLA), DeepSeek-V2's attention, with its compressed KV cache.

DeepSeek-AI, "DeepSeek-V2: A Strong, Economical, and Efficient Mixture-of-Experts Language Model" (2024),
arXiv 2405.04434, sec. 2.1, eq. 9-19. Keys and values are not cached per head: each token keeps one
low-rank latent c_kv = RMSNorm(W_DKV x) of r numbers (eq. 9) and one shared rotary key k_pe of d_r numbers
(eq. 14, "decoupled RoPE"), and every head's keys and values are expanded from the latent on the fly (eq.
10-11). The query may go through its own low-rank bottleneck (eq. 12-13; q_lora_rank None = DeepSeek-V2-Lite's
plain q_proj).

The parameter names are Hugging Face's `DeepseekV2Attention` (transformers' modeling_deepseek_v2.py), so a
DeepSeek checkpoint loads as it is; RoPE rotates DeepSeek's interleaved pairs (2i, 2i+1) as a complex multiply
(DeepSeek-V3's inference/model.py `apply_rotary_emb`); the cache is (normalised latent, rotated k_pe) in pair
order, what DeepSeek-V3's `kv_cache` / `pe_cache` keep in its default "absorb" mode.
"""
import math

import torch
import torch.nn as nn


class DeepseekV2RMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_cos_sin(positions, d, theta, dtype):
    """cos, sin (L, d/2) of the angles position · theta^(-2i/d), i = 0 .. d/2 - 1; computed in float64."""
    inv_freq = theta ** (-torch.arange(0, d, 2, dtype=torch.float64, device=positions.device) / d)  # (d/2,)
    angles = torch.outer(positions.to(torch.float64), inv_freq)  # (L, d/2)
    return angles.cos().to(dtype), angles.sin().to(dtype)


def apply_rotary_emb(x, cos, sin):
    """Rotate the interleaved pairs (x[2i], x[2i+1]) of the last dim: a complex multiply by cos + i·sin.

    x (..., L, d); cos, sin (L, d/2)."""
    x1, x2 = x[..., 0::2], x[..., 1::2]  # (..., L, d/2): the pairs (2i, 2i+1)
    out = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)  # (..., L, d/2, 2)
    return out.flatten(-2)  # (..., L, d), back in pair order


class MultiHeadLatentAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim,
                 q_lora_rank=None, rope_theta=10000.0):
        super().__init__()
        assert qk_rope_head_dim % 2 == 0, f"qk_rope_head_dim must be even (RoPE turns pairs), got {qk_rope_head_dim}"
        C, H = hidden_size, num_heads
        self.num_heads, self.kv_lora_rank = H, kv_lora_rank
        self.qk_nope_head_dim, self.qk_rope_head_dim, self.v_head_dim = qk_nope_head_dim, qk_rope_head_dim, v_head_dim
        self.qk_head_dim = qk_nope_head_dim + qk_rope_head_dim
        self.q_lora_rank, self.rope_theta = q_lora_rank, rope_theta
        if q_lora_rank is None:
            self.q_proj = nn.Linear(C, H * self.qk_head_dim, bias=False)
        else:
            self.q_a_proj = nn.Linear(C, q_lora_rank, bias=False)  # W_DQ, eq. 12
            self.q_a_layernorm = DeepseekV2RMSNorm(q_lora_rank)
            self.q_b_proj = nn.Linear(q_lora_rank, H * self.qk_head_dim, bias=False)  # W_UQ and W_QR, eq. 13, 15
        self.kv_a_proj_with_mqa = nn.Linear(C, kv_lora_rank + qk_rope_head_dim, bias=False)  # W_DKV and W_KR
        self.kv_a_layernorm = DeepseekV2RMSNorm(kv_lora_rank)
        self.kv_b_proj = nn.Linear(kv_lora_rank, H * (qk_nope_head_dim + v_head_dim), bias=False)  # W_UK and W_UV
        self.o_proj = nn.Linear(H * v_head_dim, C, bias=False)  # W_O, eq. 19

    def forward(self, x, past_kv=None):
        """x (B, L, C): new tokens at positions P .. P+L-1; past_kv = (c_kv (B, P, r), k_pe (B, P, d_r)) or None."""
        B, L, _ = x.shape
        H, d_n, d_r, d_v = self.num_heads, self.qk_nope_head_dim, self.qk_rope_head_dim, self.v_head_dim
        P = 0 if past_kv is None else past_kv[0].shape[1]
        positions = torch.arange(P, P + L, device=x.device)

        q = self.q_proj(x) if self.q_lora_rank is None else self.q_b_proj(self.q_a_layernorm(self.q_a_proj(x)))
        q = q.view(B, L, H, d_n + d_r).transpose(1, 2)  # (B, H, L, d_n + d_r)
        q_nope, q_pe = q.split([d_n, d_r], dim=-1)
        latent, k_pe = self.kv_a_proj_with_mqa(x).split([self.kv_lora_rank, d_r], dim=-1)  # (B, L, r), (B, L, d_r)
        c_kv = self.kv_a_layernorm(latent)  # (B, L, r): what is cached, not the per-head keys and values
        cos, sin = rope_cos_sin(positions, d_r, self.rope_theta, x.dtype)
        q_pe = apply_rotary_emb(q_pe, cos, sin)  # every head
        k_pe = apply_rotary_emb(k_pe, cos, sin)  # one key, shared by all heads
        if past_kv is not None:
            c_kv = torch.cat((past_kv[0], c_kv), dim=1)  # (B, P+L, r)
            k_pe = torch.cat((past_kv[1], k_pe), dim=1)  # (B, P+L, d_r)
        T = P + L

        kv = self.kv_b_proj(c_kv).view(B, T, H, d_n + d_v).transpose(1, 2)  # (B, H, T, d_n + d_v)
        k_nope, v = kv.split([d_n, d_v], dim=-1)
        scores = (q_nope @ k_nope.transpose(-2, -1) + q_pe @ k_pe[:, None].transpose(-2, -1))  # (B, H, L, T)
        scores = scores / math.sqrt(d_n + d_r)
        future = torch.ones(L, T, dtype=torch.bool, device=x.device).triu(P + 1)  # query i sees keys j <= P + i
        scores = scores.masked_fill(future, float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v  # (B, H, L, d_v)
        out = self.o_proj(y.transpose(1, 2).reshape(B, L, H * d_v))  # (B, L, C)
        return out, (c_kv, k_pe)
