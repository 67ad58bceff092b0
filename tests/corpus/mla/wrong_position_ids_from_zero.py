# kata: mla
# why: position_ids = arange(q_len) in every call, as a model without a cache writes it
# mistake: positions_restart
import math

import torch
import torch.nn as nn


class DeepseekV2RMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def to_halves(t):
    # pair order (x0, x1, x2, x3, ...) -> halves (x0, x2, ..., x1, x3, ...)
    d = t.shape[-1]
    return t.reshape(*t.shape[:-1], d // 2, 2).transpose(-1, -2).reshape(t.shape)


def to_pairs(t):
    d = t.shape[-1]
    return t.reshape(*t.shape[:-1], 2, d // 2).transpose(-1, -2).reshape(t.shape)


class MultiHeadLatentAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim,
                 q_lora_rank=None, rope_theta=10000.0):
        super().__init__()
        if qk_rope_head_dim % 2:
            raise ValueError(f"qk_rope_head_dim must be even, got {qk_rope_head_dim}")
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.q_lora_rank = q_lora_rank
        self.kv_lora_rank = kv_lora_rank
        self.qk_nope_head_dim = qk_nope_head_dim
        self.qk_rope_head_dim = qk_rope_head_dim
        self.v_head_dim = v_head_dim
        self.q_head_dim = qk_nope_head_dim + qk_rope_head_dim
        if q_lora_rank is None:
            self.q_proj = nn.Linear(hidden_size, num_heads * self.q_head_dim, bias=False)
        else:
            self.q_a_proj = nn.Linear(hidden_size, q_lora_rank, bias=False)
            self.q_a_layernorm = DeepseekV2RMSNorm(q_lora_rank)
            self.q_b_proj = nn.Linear(q_lora_rank, num_heads * self.q_head_dim, bias=False)
        self.kv_a_proj_with_mqa = nn.Linear(hidden_size, kv_lora_rank + qk_rope_head_dim, bias=False)
        self.kv_a_layernorm = DeepseekV2RMSNorm(kv_lora_rank)
        self.kv_b_proj = nn.Linear(kv_lora_rank, num_heads * (self.q_head_dim - qk_rope_head_dim + v_head_dim),
                                   bias=False)
        self.o_proj = nn.Linear(num_heads * v_head_dim, hidden_size, bias=False)
        inv_freq = 1.0 / (rope_theta ** (torch.arange(0, qk_rope_head_dim, 2).double() / qk_rope_head_dim))
        self.register_buffer("inv_freq", inv_freq)
        self.softmax_scale = self.q_head_dim ** (-0.5)

    def cos_sin(self, position_ids, dtype):
        freqs = torch.outer(position_ids.double(), self.inv_freq.double())
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(dtype), emb.sin().to(dtype)

    def forward(self, hidden_states, past_kv=None):
        bsz, q_len, _ = hidden_states.size()
        past_len = 0 if past_kv is None else past_kv[0].shape[1]
        if self.q_lora_rank is None:
            q = self.q_proj(hidden_states)
        else:
            q = self.q_b_proj(self.q_a_layernorm(self.q_a_proj(hidden_states)))
        q = q.view(bsz, q_len, self.num_heads, self.q_head_dim).transpose(1, 2)
        q_nope, q_pe = torch.split(q, [self.qk_nope_head_dim, self.qk_rope_head_dim], dim=-1)

        compressed_kv = self.kv_a_proj_with_mqa(hidden_states)
        compressed_kv, k_pe = torch.split(compressed_kv, [self.kv_lora_rank, self.qk_rope_head_dim], dim=-1)
        compressed_kv = self.kv_a_layernorm(compressed_kv)

        position_ids = torch.arange(q_len, device=hidden_states.device)
        cos, sin = self.cos_sin(position_ids, q.dtype)
        q_pe = to_halves(q_pe)
        q_pe = q_pe * cos + rotate_half(q_pe) * sin
        k_pe = to_halves(k_pe)
        k_pe = to_pairs(k_pe * cos + rotate_half(k_pe) * sin)

        if past_kv is not None:
            compressed_kv = torch.cat([past_kv[0], compressed_kv], dim=1)
            k_pe = torch.cat([past_kv[1], k_pe], dim=1)
        kv_seq_len = compressed_kv.shape[1]

        kv = self.kv_b_proj(compressed_kv).view(bsz, kv_seq_len, self.num_heads,
                                                self.qk_nope_head_dim + self.v_head_dim).transpose(1, 2)
        k_nope, value_states = torch.split(kv, [self.qk_nope_head_dim, self.v_head_dim], dim=-1)
        k_rot = to_halves(k_pe)[:, None].expand(-1, self.num_heads, -1, -1)
        query_states = torch.cat([q_nope, q_pe], dim=-1)
        key_states = torch.cat([k_nope, k_rot], dim=-1)

        attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) * self.softmax_scale
        causal = torch.ones(q_len, kv_seq_len, dtype=torch.bool, device=hidden_states.device).tril(past_len)
        attn_weights = attn_weights.masked_fill(~causal, torch.finfo(attn_weights.dtype).min)
        attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        attn_output = torch.matmul(attn_weights, value_states)
        attn_output = attn_output.transpose(1, 2).reshape(bsz, q_len, self.num_heads * self.v_head_dim)
        return self.o_proj(attn_output), (compressed_kv, k_pe)
