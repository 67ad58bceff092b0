# kata: gpt2-block
# why: the causal mask made without device=: a GPU run mixes devices
# mistake: none
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GPT2Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        if n_embd % n_head:
            raise ValueError("n_head must divide n_embd")
        self.n_head = n_head
        self.ln_1 = nn.LayerNorm(n_embd)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.attn = nn.Module()
        self.attn.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.attn.c_proj = nn.Linear(n_embd, n_embd)
        self.mlp = nn.Module()
        self.mlp.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.mlp.c_proj = nn.Linear(4 * n_embd, n_embd)

    @staticmethod
    def _ln(x, ln):
        return F.layer_norm(x, ln.normalized_shape, ln.weight, ln.bias, ln.eps)

    def _attention(self, x):
        b, t, c = x.shape
        h = self.n_head
        qkv = F.linear(x, self.attn.c_attn.weight, self.attn.c_attn.bias)
        q, k, v = qkv.reshape(b, t, 3, h, c // h).unbind(dim=2)  # each [b, t, h, d]
        s = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(c // h)
        keep = torch.tril(torch.ones(t, t, dtype=torch.bool))
        s = s.masked_fill(~keep, float("-inf"))
        p = s.softmax(dim=-1)
        o = torch.einsum("bhqk,bkhd->bqhd", p, v).reshape(b, t, c)
        return F.linear(o, self.attn.c_proj.weight, self.attn.c_proj.bias)

    def _mlp(self, x):
        u = F.linear(x, self.mlp.c_fc.weight, self.mlp.c_fc.bias)
        return F.linear(F.gelu(u, approximate="tanh"), self.mlp.c_proj.weight, self.mlp.c_proj.bias)

    def forward(self, x):
        x = x + self._attention(self._ln(x, self.ln_1))
        return x + self._mlp(self._ln(x, self.ln_2))
