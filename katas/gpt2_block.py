# kata: gpt2-block
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.n_embd, self.n_head = n_embd, n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)  # q, k, v: output features [0, C), [C, 2C), [2C, 3C)
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, x):
        raise NotImplementedError("write CausalSelfAttention.forward")


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.c_proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        raise NotImplementedError("write MLP.forward")


class GPT2Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        # the contract's check on n_embd and n_head goes here
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = MLP(n_embd)

    def forward(self, x):
        raise NotImplementedError("write GPT2Block.forward")
