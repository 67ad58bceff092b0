"""One GPT-2 decoder block: nanoGPT's `Block` (Karpathy, model.py) with GPT-2's numbers.

Radford et al. (2019), "Language Models are Unsupervised Multitask Learners" §2.3: layer norm moved to the input
of each sub-block (pre-norm). nanoGPT's names and nn.Linear layout ([out, in]); transformers' `GPT2Block` holds the
same maps as `Conv1D` with the weights transposed ([in, out]). The MLP's GELU here is GPT-2's tanh form (`gelu_new`,
nn.GELU(approximate="tanh")); nanoGPT's exact-erf `nn.GELU()` is the other accepted convention. No dropout
(inference), eps 1e-5.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        assert n_embd % n_head == 0, f"n_embd {n_embd} must be divisible by n_head {n_head}"
        self.n_head, self.n_embd = n_head, n_embd
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)  # q, k, v for all heads, in one projection
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, x):
        B, T, C = x.shape
        hd = C // self.n_head
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)  # each [B, T, C]
        q = q.view(B, T, self.n_head, hd).transpose(1, 2)  # [B, H, T, hd]
        k = k.view(B, T, self.n_head, hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))  # [B, H, T, T]
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        att = att.masked_fill(future, float("-inf"))  # query t sees keys 0 … t
        att = F.softmax(att, dim=-1)
        y = att @ v  # [B, H, T, hd]
        y = y.transpose(1, 2).contiguous().view(B, T, C)  # heads side by side, in head order
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.gelu = nn.GELU(approximate="tanh")  # GPT-2's gelu_new
        self.c_proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class GPT2Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd, eps=1e-5)
        self.attn = CausalSelfAttention(n_embd, n_head)
        self.ln_2 = nn.LayerNorm(n_embd, eps=1e-5)
        self.mlp = MLP(n_embd)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))  # [B, T, C]
        return x + self.mlp(self.ln_2(x))
