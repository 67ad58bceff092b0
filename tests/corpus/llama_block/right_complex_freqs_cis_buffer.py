# kata: llama-block
# why: Meta-style precomputed complex freqs_cis kept as a persistent buffer, paired as Hugging Face pairs (i with i + hd/2): module.to(float64) would have dropped its imaginary part, .double() keeps it
import torch
import torch.nn as nn


def precompute_freqs_cis(dim, end, theta):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    t = torch.arange(end, dtype=torch.float64)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)  # complex128 [end, dim // 2]


def apply_rotary_emb(x, freqs_cis):
    half = x.shape[-1] // 2
    xc = torch.complex(x[..., :half].double(), x[..., half:].double())  # pairs (i, i + hd/2)
    out = xc * freqs_cis[: x.shape[-2]]
    return torch.cat((out.real, out.imag), dim=-1).to(x.dtype)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Attention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, theta):
        super().__init__()
        self.n_heads, self.n_kv_heads = n_heads, n_kv_heads
        self.head_dim = dim // n_heads
        self.q_proj = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * self.head_dim, dim, bias=False)
        self.register_buffer("freqs_cis", precompute_freqs_cis(self.head_dim, 128, theta))

    def forward(self, x):
        B, L, _ = x.shape
        q = self.q_proj(x).view(B, L, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, L, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, L, self.n_kv_heads, self.head_dim).transpose(1, 2)
        q, k = apply_rotary_emb(q, self.freqs_cis), apply_rotary_emb(k, self.freqs_cis)
        rep = self.n_heads // self.n_kv_heads
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        scores = q @ k.transpose(-2, -1) / self.head_dim ** 0.5
        mask = torch.full((L, L), float("-inf"), device=x.device).triu(1)
        probs = torch.softmax(scores + mask, dim=-1)
        return self.o_proj((probs @ v).transpose(1, 2).reshape(B, L, -1))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.down_proj(nn.functional.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden_size, num_heads, num_kv_heads, intermediate_size, rms_norm_eps=1e-6,
                 rope_theta=10000.0):
        super().__init__()
        assert hidden_size % num_heads == 0 and num_heads % num_kv_heads == 0
        self.self_attn = Attention(hidden_size, num_heads, num_kv_heads, rope_theta)
        self.mlp = FeedForward(hidden_size, intermediate_size)
        self.input_layernorm = RMSNorm(hidden_size, rms_norm_eps)
        self.post_attention_layernorm = RMSNorm(hidden_size, rms_norm_eps)

    def forward(self, x):
        h = x + self.self_attn(self.input_layernorm(x))
        return h + self.mlp(self.post_attention_layernorm(h))
