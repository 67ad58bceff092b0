# kata: mla
# why: nn.RMSNorm for both latent norms, RoPE as torch.polar built in forward in float64 on torch.complex(even, odd) pairs, weights sliced by hand instead of split, a loop over heads with einsum, a boolean key-position mask from aranges
import math

import torch
import torch.nn as nn


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
            self.q_a_layernorm = nn.RMSNorm(q_lora_rank, eps=1e-6)
            self.q_b_proj = nn.Linear(q_lora_rank, num_heads * dq, bias=False)
        else:
            self.q_proj = nn.Linear(hidden_size, num_heads * dq, bias=False)
        self.kv_a_proj_with_mqa = nn.Linear(hidden_size, kv_lora_rank + qk_rope_head_dim, bias=False)
        self.kv_a_layernorm = nn.RMSNorm(kv_lora_rank, eps=1e-6)
        self.kv_b_proj = nn.Linear(kv_lora_rank, num_heads * (qk_nope_head_dim + v_head_dim), bias=False)
        self.o_proj = nn.Linear(num_heads * v_head_dim, hidden_size, bias=False)

    def rotate(self, t, pos):
        half = self.dr // 2
        freq = self.theta ** (-2.0 * torch.arange(half, dtype=torch.float64, device=t.device) / self.dr)
        ang = pos[:, None].double() * freq[None, :]
        rot = torch.polar(torch.ones_like(ang), ang)
        tc = torch.complex(t[..., 0::2].double(), t[..., 1::2].double())
        rot = rot.view(len(pos), *([1] * (t.dim() - 3)), half)  # over the heads too, for q
        return torch.view_as_real(tc * rot).flatten(-2).to(t.dtype)

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
        allowed = torch.arange(T, device=x.device)[None, :] <= (P + torch.arange(L, device=x.device))[:, None]
        heads = []
        for h in range(H):
            k_nope, v = kv[:, :, h, :dn], kv[:, :, h, dn:]
            s = torch.einsum("bld,btd->blt", q_nope[:, :, h], k_nope) + torch.einsum("bld,btd->blt", q_rot[:, :, h], k_rot)
            s = s / math.sqrt(dn + dr)
            s = s.masked_fill(~allowed, float("-inf"))
            heads.append(torch.einsum("blt,btd->bld", s.softmax(dim=-1), v))
        out = self.o_proj(torch.cat(heads, dim=-1))
        return out, (c, k_rot)
