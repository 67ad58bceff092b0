# kata: mla
# why: cos/sin tables as persistent buffers (float32, made in __init__ for 2048 positions), RoPE on the even/odd features by slicing, a hand-written RMSNorm in its own module, all heads at once with torch.matmul, an additive float mask
import math

import torch
import torch.nn as nn


class Norm(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))

    def forward(self, x):
        return self.weight * (x / torch.sqrt((x * x).mean(dim=-1, keepdim=True) + 1e-6))


class MultiHeadLatentAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim,
                 q_lora_rank=None, rope_theta=10000.0):
        super().__init__()
        assert qk_rope_head_dim % 2 == 0
        self.H, self.r, self.dn, self.dr, self.dv = num_heads, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim
        self.use_q_lora = q_lora_rank is not None
        self.theta = rope_theta
        dq = qk_nope_head_dim + qk_rope_head_dim
        if self.use_q_lora:
            self.q_a_proj = nn.Linear(hidden_size, q_lora_rank, bias=False)
            self.q_a_layernorm = Norm(q_lora_rank)
            self.q_b_proj = nn.Linear(q_lora_rank, num_heads * dq, bias=False)
        else:
            self.q_proj = nn.Linear(hidden_size, num_heads * dq, bias=False)
        self.kv_a_proj_with_mqa = nn.Linear(hidden_size, kv_lora_rank + qk_rope_head_dim, bias=False)
        self.kv_a_layernorm = Norm(kv_lora_rank)
        self.kv_b_proj = nn.Linear(kv_lora_rank, num_heads * (qk_nope_head_dim + v_head_dim), bias=False)
        self.o_proj = nn.Linear(num_heads * v_head_dim, hidden_size, bias=False)
        inv = 1.0 / rope_theta ** (torch.arange(0, qk_rope_head_dim, 2, dtype=torch.float32) / qk_rope_head_dim)
        angles = torch.arange(2048, dtype=torch.float32)[:, None] * inv[None, :]
        self.register_buffer("cos_table", angles.cos())
        self.register_buffer("sin_table", angles.sin())

    def rotate(self, t, pos):
        cos, sin = self.cos_table[pos].to(t.dtype), self.sin_table[pos].to(t.dtype)  # (L, d_r/2)
        shape = (len(pos),) + (1,) * (t.dim() - 3) + (self.dr // 2,)
        cos, sin = cos.view(shape), sin.view(shape)
        even, odd = t[..., 0::2], t[..., 1::2]
        out = torch.empty_like(t)
        out[..., 0::2] = even * cos - odd * sin
        out[..., 1::2] = even * sin + odd * cos
        return out

    def forward(self, x, past_kv=None):
        B, L, _ = x.shape
        H, r, dn, dr, dv = self.H, self.r, self.dn, self.dr, self.dv
        P = past_kv[0].shape[1] if past_kv is not None else 0
        pos = torch.arange(P, P + L, device=x.device)
        q = self.q_b_proj(self.q_a_layernorm(self.q_a_proj(x))) if self.use_q_lora else self.q_proj(x)
        q = q.reshape(B, L, H, dn + dr)
        q_nope, q_rot = q[..., :dn], self.rotate(q[..., dn:], pos)
        a = self.kv_a_proj_with_mqa(x)
        c = self.kv_a_layernorm(a[..., :r])
        k_rot = self.rotate(a[..., r:], pos)
        if past_kv is not None:
            c = torch.cat((past_kv[0], c), dim=1)
            k_rot = torch.cat((past_kv[1], k_rot), dim=1)
        T = c.shape[1]
        kv = self.kv_b_proj(c).reshape(B, T, H, dn + dv)
        q_nope, q_rot, kv = q_nope.transpose(1, 2), q_rot.transpose(1, 2), kv.transpose(1, 2)  # (B, H, ·, ·)
        scores = torch.matmul(q_nope, kv[..., :dn].transpose(-1, -2)) + torch.matmul(q_rot, k_rot.unsqueeze(1).transpose(-1, -2))
        bias = torch.zeros(L, T, dtype=scores.dtype, device=x.device)
        bias = bias.masked_fill(torch.ones(L, T, dtype=torch.bool, device=x.device).triu(P + 1), float("-inf"))
        probs = torch.softmax(scores / math.sqrt(dn + dr) + bias, dim=-1)
        out = self.o_proj(torch.matmul(probs, kv[..., dn:]).transpose(1, 2).reshape(B, L, H * dv))
        return out, (c, k_rot)
