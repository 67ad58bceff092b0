# kata: mla
import math

import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class MultiHeadLatentAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim,
                 q_lora_rank=None, rope_theta=10000.0):
        super().__init__()
        assert qk_rope_head_dim % 2 == 0, "qk_rope_head_dim must be even"
        self.num_heads, self.kv_lora_rank, self.q_lora_rank = num_heads, kv_lora_rank, q_lora_rank
        self.qk_nope_head_dim, self.qk_rope_head_dim, self.v_head_dim = qk_nope_head_dim, qk_rope_head_dim, v_head_dim
        self.qk_head_dim = qk_nope_head_dim + qk_rope_head_dim
        self.rope_theta = rope_theta
        if q_lora_rank is None:
            self.q_proj = nn.Linear(hidden_size, num_heads * self.qk_head_dim, bias=False)
        else:
            self.q_a_proj = nn.Linear(hidden_size, q_lora_rank, bias=False)
            self.q_a_layernorm = RMSNorm(q_lora_rank)
            self.q_b_proj = nn.Linear(q_lora_rank, num_heads * self.qk_head_dim, bias=False)
        self.kv_a_proj_with_mqa = nn.Linear(hidden_size, kv_lora_rank + qk_rope_head_dim, bias=False)
        self.kv_a_layernorm = RMSNorm(kv_lora_rank)
        self.kv_b_proj = nn.Linear(kv_lora_rank, num_heads * (qk_nope_head_dim + v_head_dim), bias=False)
        self.o_proj = nn.Linear(num_heads * v_head_dim, hidden_size, bias=False)

    def _rope(self, t, positions):
        d = t.shape[-1]
        inv_freq = 1.0 / self.rope_theta ** (torch.arange(0, d, 2, dtype=torch.float64, device=t.device) / d)
        ang = positions.double()[:, None] * inv_freq[None, :]
        cos, sin = ang.cos().to(t.dtype), ang.sin().to(t.dtype)
        x1, x2 = t[..., 0::2], t[..., 1::2]
        return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)

    def forward(self, x, past_kv=None):
        B, L, _ = x.shape
        H = self.num_heads
        P = 0 if past_kv is None else past_kv[0].shape[1]
        positions = torch.arange(L, device=x.device)

        if self.q_lora_rank is None:
            q = self.q_proj(x)
        else:
            q = self.q_b_proj(self.q_a_layernorm(self.q_a_proj(x)))
        q = q.view(B, L, H, self.qk_head_dim).transpose(1, 2)
        q_nope, q_pe = q.split([self.qk_nope_head_dim, self.qk_rope_head_dim], dim=-1)
        q_pe = self._rope(q_pe, positions)

        c_kv, k_pe = self.kv_a_proj_with_mqa(x).split([self.kv_lora_rank, self.qk_rope_head_dim], dim=-1)
        c_kv = self.kv_a_layernorm(c_kv)
        k_pe = self._rope(k_pe, positions)
        if past_kv is not None:
            c_kv = torch.cat([past_kv[0], c_kv], dim=1)
            k_pe = torch.cat([past_kv[1], k_pe], dim=1)
        T = c_kv.shape[1]
        k_rot = k_pe

        kv = self.kv_b_proj(c_kv).view(B, T, H, -1).transpose(1, 2)
        k_nope, v = kv.split([self.qk_nope_head_dim, self.v_head_dim], dim=-1)
        scores = q_nope @ k_nope.transpose(-2, -1) + q_pe @ k_rot.unsqueeze(1).transpose(-2, -1)
        scores = scores / math.sqrt(self.qk_head_dim)
        mask = torch.ones(L, T, dtype=torch.bool, device=x.device).tril(P)
        scores = scores.masked_fill(~mask, float("-inf"))
        out = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, L, -1)
        return self.o_proj(out), (c_kv, k_pe)
